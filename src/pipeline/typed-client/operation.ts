// Turns a typed client's call (a root field, its arguments, a selection object) into one GraphQL
// operation whose argument values are all variables, checked against the served schema first. The
// types of the generated client make an invalid selection fail to compile; this check is for the
// ones that arrive anyway (a cast, JavaScript, a schema that changed since codegen): a coded error
// naming the place, never a half-built query.
import {
  type GraphQLArgument, type GraphQLField, type GraphQLObjectType, type GraphQLSchema, getNamedType, isLeafType, isNonNullType, isObjectType,
} from 'graphql';
import { ErrorCode, PublicError } from '../../shared/errors.js';

/** Where a client method's root field is: `query` or `mutation`, then the path of module fields down to it. */
export interface RootCall {
  readonly operation: 'query' | 'mutation';
  readonly path: readonly string[];
}

export interface BuiltOperation {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

/** A selection or argument the served schema does not have (a programming fault of the calling code). */
export class SelectionError extends PublicError {
  constructor(where: string, problem: string) {
    super(ErrorCode.InvalidSelection, `typed client: ${where}: ${problem}`, 500);
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

class Builder {
  readonly variables: Record<string, unknown> = {};
  readonly declarations: string[] = [];

  /** `(name: $vN, ...)` for the arguments given, each declared with the argument's own type. */
  args(field: GraphQLField<unknown, unknown>, given: unknown, where: string): string {
    if (given === undefined) {
      this.required(field, [], where);
      return '';
    }
    if (!isPlainObject(given)) throw new SelectionError(where, `arguments must be an object, got ${typeof given}`);
    const known = new Map<string, GraphQLArgument>(field.args.map((a) => [a.name, a]));
    const parts: string[] = [];
    for (const [name, value] of Object.entries(given)) {
      const arg = known.get(name);
      if (!arg) throw new SelectionError(where, `unknown argument "${name}" (${field.args.map((a) => a.name).join(', ') || 'it takes none'})`);
      if (value === undefined) continue;
      const variable = `v${this.declarations.length}`;
      this.declarations.push(`$${variable}: ${String(arg.type)}`);
      this.variables[variable] = value;
      parts.push(`${name}: $${variable}`);
    }
    this.required(field, Object.keys(given).filter((k) => given[k] !== undefined), where);
    return parts.length ? `(${parts.join(', ')})` : '';
  }

  private required(field: GraphQLField<unknown, unknown>, given: readonly string[], where: string): void {
    const missing = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined && !given.includes(a.name));
    if (missing.length) throw new SelectionError(where, `missing required argument${missing.length > 1 ? 's' : ''} ${missing.map((a) => `"${a.name}"`).join(', ')}`);
  }

  /** `{ a b(x: $v1) c { ... } }` for a selection on `type`. */
  selection(type: GraphQLObjectType, select: unknown, where: string): string {
    if (!isPlainObject(select)) throw new SelectionError(where, `"${type.name}" is an object type: select its fields with { select: { field: true, ... } }`);
    const fields = type.getFields();
    const parts: string[] = [];
    for (const [name, value] of Object.entries(select)) {
      if (value === undefined) continue;
      const here = `${where}.${name}`;
      const field = fields[name];
      if (!field) throw new SelectionError(here, `"${type.name}" has no field "${name}"`);
      const named = getNamedType(field.type);
      if (isLeafType(named)) {
        if (value === true) {
          parts.push(`${name}${this.args(field, undefined, here)}`);
          continue;
        }
        if (!isPlainObject(value) || 'select' in value) throw new SelectionError(here, `a ${named.name} field is selected with true (or { args } when it takes arguments)`);
        parts.push(`${name}${this.args(field, value.args, here)}`);
        continue;
      }
      if (!isObjectType(named)) throw new SelectionError(here, `${named.name} fields cannot be selected by the typed client (use query())`);
      if (!isPlainObject(value) || !isPlainObject(value.select)) {
        throw new SelectionError(here, `"${name}" is a relation or object of type ${named.name}: select its fields with { select: { ... } }, not ${JSON.stringify(value)}`);
      }
      const extra = Object.keys(value).filter((k) => k !== 'select' && k !== 'args');
      if (extra.length) throw new SelectionError(here, `unknown key${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${k}"`).join(', ')} (a field is selected with { select, args })`);
      parts.push(`${name}${this.args(field, value.args, here)} ${this.selection(named, value.select, here)}`);
    }
    if (!parts.length) throw new SelectionError(where, 'select at least one field');
    return `{ ${parts.join(' ')} }`;
  }
}

/** The operation text and variables of one client call (root field at `root.path`). */
export function buildOperation(schema: GraphQLSchema, root: RootCall, select: unknown, args: unknown): BuiltOperation {
  let type: GraphQLObjectType | null | undefined = root.operation === 'query' ? schema.getQueryType() : schema.getMutationType();
  const where = root.path.join('.');
  const b = new Builder();
  const open: string[] = [];
  let body = '';
  root.path.forEach((name, i) => {
    const field = type?.getFields()[name];
    if (!type || !field) throw new SelectionError(where, `the served schema has no field "${name}" here (is the source loaded? is the client generated from the catalog served now?)`);
    if (i < root.path.length - 1) {
      const next = getNamedType(field.type);
      if (!isObjectType(next)) throw new SelectionError(where, `"${name}" is not a module`);
      open.push(name);
      type = next;
      return;
    }
    const named = getNamedType(field.type);
    const head = `${name}${b.args(field, args, where)}`;
    body = isObjectType(named) ? `${head} ${b.selection(named, select, where)}` : head;
    if (!isObjectType(named) && select !== undefined) throw new SelectionError(where, `returns ${named.name}: it takes no selection`);
  });
  const text = open.reduceRight((inner, m) => `${m} { ${inner} }`, body);
  const vars = b.declarations.length ? `(${b.declarations.join(', ')})` : '';
  return { query: `${root.operation}${vars} { ${text} }`, variables: b.variables };
}

/** The root field's value in an operation's data (the path of module fields, then the field). */
export function dig(data: unknown, path: readonly string[]): unknown {
  let cur = data;
  for (const p of path) cur = (cur as Record<string, unknown> | null | undefined)?.[p];
  return cur;
}
