// The typed client of one source (issue 20 item 3), written from the served schema: every root field
// of the source (lists, _by_pk, unique queries, aggregations, bucket aggregations, functions,
// insert/update/delete) becomes a method; types.ts holds the schema map of every output type those
// fields reach, the input types of their arguments (filters, order, mutation data) and the enums.
// The selection and result types are in src/pipeline/typed-client/types.ts.
import {
  getNamedType, type GraphQLArgument, type GraphQLField, type GraphQLInputType, type GraphQLNamedType, type GraphQLObjectType, type GraphQLOutputType,
  type GraphQLSchema, isEnumType, isInputObjectType, isLeafType, isListType, isNonNullType, isObjectType, isScalarType,
} from 'graphql';
import type { ResolvedCatalog } from '../src/catalog/model.js';
import type { SchemaIndex } from '../src/schema/surface.js';

const OUTPUT_SCALARS: Record<string, string> = {
  String: 'string', ID: 'string', Int: 'number', Float: 'number', Boolean: 'boolean', BigInt: 'number | bigint', JSON: 'unknown',
  Geometry: 'GeoJSON', Vector: 'number[]',
};
// Values svc accepts: BigInt also as a string of digits, Geometry also as WKT text.
const INPUT_SCALARS: Record<string, string> = { ...OUTPUT_SCALARS, BigInt: 'number | bigint | string', Geometry: 'GeoJSON | string' };

/**
 * Query-time joins (`_join`, `_spatial`, SPEC §4) reach every object of every source: the client
 * leaves them out (its map would hold the whole schema); `query()` still runs them.
 */
const QUERY_TIME_JOINS = new Set(['_join', '_spatial']);

const fieldsOf = (type: GraphQLObjectType): GraphQLField<unknown, unknown>[] =>
  Object.values(type.getFields()).filter((f) => !QUERY_TIME_JOINS.has(getNamedType(f.type).name));

export interface RootMethod {
  readonly name: string;
  readonly operation: 'query' | 'mutation';
  readonly path: readonly string[];
  readonly field: GraphQLField<unknown, unknown>;
  /** `value`: a root whose answer is always there (aggregations, writes' results, table functions). */
  readonly shape: 'list' | 'one' | 'value';
}

const doc = (text: string | null | undefined, indent: string): string =>
  text ? `${indent}/** ${text.replace(/\*\//g, '* /').replace(/\s*\n\s*/g, ' ')} */\n` : '';

/** The root fields of `cat`'s source, found under Query and Mutation through module fields. */
export function rootMethods(schema: GraphQLSchema, index: SchemaIndex, cat: ResolvedCatalog): RootMethod[] {
  const source = cat.source.name;
  const out: RootMethod[] = [];
  const visit = (type: GraphQLObjectType, operation: 'query' | 'mutation', path: string[]) => {
    for (const field of Object.values(type.getFields())) {
      const coord = `${type.name}.${field.name}`;
      const here = [...path, field.name];
      if (index.modules.has(coord)) {
        const child = getNamedType(field.type);
        if (isObjectType(child) && child !== type) visit(child, operation, here);
        continue;
      }
      const root = index.roots.get(coord);
      const fn = index.catalogFunctions.get(coord);
      if (root ? index.objects.get(root.object)?.source !== source : fn?.source !== source) continue;
      const list = isListType(isNonNullType(field.type) ? field.type.ofType : field.type);
      const shape = root ? (root.kind === 'list' || root.kind === 'bucket_aggregation' ? 'list' : root.kind === 'by_pk' || root.kind === 'unique' ? 'one' : 'value')
        : list ? 'list' : 'one';
      out.push({ name: '', operation, path: here, field, shape });
    }
  };
  const query = schema.getQueryType();
  const mutation = schema.getMutationType();
  if (query) visit(query, 'query', []);
  if (mutation) visit(mutation, 'mutation', []);
  return named(out, cat);
}

/** Method names: the field's name without the source's prefix; the module path joins a name two modules share. */
function named(methods: RootMethod[], cat: ResolvedCatalog): RootMethod[] {
  const prefix = !cat.source.asModule && cat.source.prefix ? cat.source.prefix : undefined;
  const strip = (n: string) => (prefix ? n.replace(new RegExp(`(^|_)${prefix}_`), '$1') : n);
  const counts = new Map<string, number>();
  for (const m of methods) counts.set(strip(m.field.name), (counts.get(strip(m.field.name)) ?? 0) + 1);
  const out = methods.map((m) => {
    const short = strip(m.field.name);
    const mod = m.path.slice(0, -1).filter((p) => p !== 'function' && p !== cat.source.name);
    return { ...m, name: counts.get(short)! > 1 && mod.length ? [...mod, short].join('_') : short };
  });
  const seen = new Set<string>();
  for (const m of out) {
    if (seen.has(m.name) || m.name === 'query' || m.name === 'as' || m.name === 'asSystem' || m.name === 'run') {
      throw new Error(`codegen: two root fields of source "${cat.source.name}" would both be the client method "${m.name}" (${m.path.join('.')})`);
    }
    seen.add(m.name);
  }
  return out;
}

class TypeWriter {
  private readonly outputs = new Map<string, GraphQLObjectType>();
  private readonly inputs = new Map<string, GraphQLNamedType>();

  constructor(readonly schemaName: string) {}

  /** TypeScript type of an input value of `type` (inputs and enums it names are collected). */
  input(type: GraphQLInputType, ns = ''): string {
    if (isNonNullType(type)) return this.input(type.ofType, ns);
    if (isListType(type)) return `Array<${this.input(type.ofType, ns)}>`;
    this.collectInput(type);
    if (isScalarType(type)) return INPUT_SCALARS[type.name] ?? 'string';
    return `${ns}${type.name}`;
  }

  private collectInput(type: GraphQLNamedType): void {
    if (this.inputs.has(type.name) || isScalarType(type)) return;
    this.inputs.set(type.name, type);
    if (isInputObjectType(type)) for (const f of Object.values(type.getFields())) this.input(f.type);
  }

  /** `{ a: T; b?: U | null }` of a field's arguments (optional when nullable or defaulted). */
  args(args: readonly GraphQLArgument[], ns = ''): string {
    if (!args.length) return '{}';
    return `{ ${args.map((a) => `${a.name}${isNonNullType(a.type) && a.defaultValue === undefined ? '' : '?'}: ${this.input(a.type, ns)}`).join('; ')} }`;
  }

  /** The schema map entry of an output type's field. */
  private outputField(field: GraphQLField<unknown, unknown>): string {
    const named = getNamedType(field.type);
    if (isObjectType(named)) {
      this.collectOutput(named);
      const list = isListType(isNonNullType(field.type) ? field.type.ofType : field.type);
      return `Obj<'${named.name}', '${list ? 'list' : 'one'}', ${this.args(field.args)}>`;
    }
    const value = this.leaf(field.type);
    return field.args.length ? `LeafArgs<${value}, ${this.args(field.args)}>` : value;
  }

  private leaf(type: GraphQLOutputType): string {
    if (isNonNullType(type)) return this.leaf(type.ofType).replace(/ \| null$/, '');
    if (isListType(type)) return `Array<${this.leaf(type.ofType)}> | null`;
    if (isEnumType(type)) {
      this.collectInput(type);
      return `${type.name} | null`;
    }
    return `${isScalarType(type) ? (OUTPUT_SCALARS[type.name] ?? 'string') : 'unknown'} | null`;
  }

  collectOutput(type: GraphQLObjectType): void {
    if (this.outputs.has(type.name)) return;
    this.outputs.set(type.name, type);
    for (const f of fieldsOf(type)) this.outputField(f);
  }

  render(): string {
    const enums: string[] = [];
    const inputs: string[] = [];
    for (const t of [...this.inputs.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      if (isEnumType(t)) enums.push(`${doc(t.description, '')}export type ${t.name} = ${t.getValues().map((v) => `'${v.name}'`).join(' | ')};`);
      else if (isInputObjectType(t)) {
        const fields = Object.values(t.getFields()).map((f) => `${doc(f.description, '  ')}  ${f.name}${isNonNullType(f.type) && f.defaultValue === undefined ? '' : '?'}: ${this.input(f.type)}${isNonNullType(f.type) ? '' : ' | null'};`);
        inputs.push(`${doc(t.description, '')}export interface ${t.name} {\n${fields.join('\n')}\n}`);
      }
    }
    const outputs = [...this.outputs.values()].sort((a, b) => a.name.localeCompare(b.name)).map((t) => {
      const fields = fieldsOf(t).map((f) => `${doc(f.description, '    ')}    ${f.name}: ${this.outputField(f)};`);
      return `${doc(t.description, '  ')}  ${t.name}: {\n${fields.join('\n')}\n  };`;
    });
    return [
      `export type GeoJSON = { type: string; [key: string]: unknown };`,
      ...enums,
      ...inputs,
      `/** The output types the client's methods reach: leaves are their values, object fields \`Obj<type, one | list, args>\`. */\nexport interface ${this.schemaName} {\n${outputs.join('\n')}\n}`,
    ].join('\n\n');
  }
}

export interface ClientTexts {
  readonly types: string;
  readonly methods: string;
  readonly schemaName: string;
}

/** types.ts's body and the client class's methods. */
export function renderClient(schema: GraphQLSchema, index: SchemaIndex, cat: ResolvedCatalog, pascalName: string): ClientTexts {
  const schemaName = `${pascalName}Schema`;
  const w = new TypeWriter(schemaName);
  const methods = rootMethods(schema, index, cat).map((m) => {
    const named = getNamedType(m.field.type);
    const root = `{ operation: '${m.operation}', path: ${JSON.stringify(m.path)} }`;
    const required = m.field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined);
    const args = m.field.args.length ? `args${required ? '' : '?'}: ${w.args(m.field.args, 'T.')}` : '';
    const head = `${doc(m.field.description, '  ')}  ${m.name}`;
    if (isObjectType(named)) {
      w.collectOutput(named);
      const R = `Out<'${named.name}', S>`;
      const ret = m.shape === 'list' ? `${R}[]` : m.shape === 'one' ? `${R} | null` : R;
      const params = [`select: In<'${named.name}', S>`, ...(args ? [args] : [])].join(', ');
      return `${head}<const S extends Sel<'${named.name}'>>(${params}): Promise<${ret}> {\n    return this.run(${root}, '${m.shape === 'list' ? 'list' : 'one'}', select, ${args ? 'args' : 'undefined'});\n  }`;
    }
    if (!isLeafType(named)) throw new Error(`codegen: ${m.path.join('.')} returns ${named.name}, which the typed client cannot read`);
    const value = `${isEnumType(named) ? `T.${named.name}` : (OUTPUT_SCALARS[named.name] ?? 'string')}${m.shape === 'list' ? '[]' : isNonNullType(m.field.type) ? '' : ' | null'}`;
    if (isEnumType(named)) w.input(named);
    return `${head}(${args}): Promise<${value}> {\n    return this.run(${root}, '${m.shape === 'list' ? 'list' : 'one'}', undefined, ${args ? 'args' : 'undefined'});\n  }`;
  });
  return { types: w.render(), methods: methods.join('\n\n'), schemaName };
}
