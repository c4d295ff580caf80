// The cost of a request (issue 15), computed from the document and its variables before anything
// runs, and refused beyond MAX_QUERY_COST, MAX_ROOT_FIELDS or MAX_ALIASES with BAD_USER_INPUT.
//
// The cost estimates the objects an answer may hold (GitHub's node limit is the model):
//   cost(field)  = 10 × values in its list arguments + rows(field) × (1 + cost(selection))
//   rows(field)  = 1 for an object; for a list: its `limit`/`nested_limit` (the smaller), else the
//                  argument's default (root lists: 2000), else FAN_OUT
// Leaf fields cost nothing beyond their list arguments; introspection is bounded by the schema and
// not counted. A fragment is measured once and counted wherever it is spread, so the walk is linear
// in the document however fragments nest.
import {
  type ArgumentNode, parse, type DocumentNode, type FieldNode, type FragmentDefinitionNode, getNamedType, type GraphQLField,
  type GraphQLNamedType, GraphQLError, type GraphQLSchema, isCompositeType, isListType, isNonNullType, isObjectType, Kind,
  type OperationDefinitionNode, type SelectionSetNode, type ValueNode, visit,
} from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import type { Config } from '../config/schema.js';
import type { InProcessGuard } from '../executor/in-process.js';
import type { Identity, RequestContext } from '../executor/request-context.js';
import { ErrorCode } from '../shared/errors.js';
import { depthLimit } from './depth-limit.js';

/** Rows assumed per parent for a list relation asked without a limit. */
export const FAN_OUT = 10;

/** Cost of one value in a list argument: each is a parameter the database plans and matches against. */
export const LIST_VALUE_COST = 10;

export interface CostLimits {
  /** MAX_QUERY_COST (0: no limit). */
  readonly maxCost: number;
  /** MAX_ROOT_FIELDS: root fields of an operation, module fields included (0: no limit). */
  readonly maxRootFields: number;
  /** MAX_ALIASES: aliases written in the document (0: no limit). */
  readonly maxAliases: number;
}

export interface RequestCost {
  readonly cost: number;
  readonly rootFields: number;
  readonly aliases: number;
}

type Variables = Readonly<Record<string, unknown>>;

/** Elements of every list in a JSON value (variables). */
function jsonListValues(v: unknown): number {
  if (Array.isArray(v)) return v.reduce<number>((n, x) => n + 1 + jsonListValues(x), 0);
  if (v && typeof v === 'object') return Object.values(v).reduce<number>((n, x) => n + jsonListValues(x), 0);
  return 0;
}

/** Elements of every list in an argument value, variables resolved. */
function listValues(node: ValueNode, variables: Variables): number {
  switch (node.kind) {
    case Kind.LIST:
      return node.values.reduce((n, v) => n + 1 + listValues(v, variables), 0);
    case Kind.OBJECT:
      return node.fields.reduce((n, f) => n + listValues(f.value, variables), 0);
    case Kind.VARIABLE:
      return jsonListValues(variables[node.name.value]);
    default:
      return 0;
  }
}

function intArg(args: readonly ArgumentNode[] | undefined, name: string, variables: Variables): number | undefined {
  const a = args?.find((x) => x.name.value === name)?.value;
  if (!a) return undefined;
  const v = a.kind === Kind.INT ? Number(a.value) : a.kind === Kind.VARIABLE ? variables[a.name.value] : undefined;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

class Measure {
  private readonly fragmentCosts = new Map<string, number>();
  private readonly open = new Set<string>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
    private readonly variables: Variables,
  ) {}

  private rows(field: FieldNode, def: GraphQLField<unknown, unknown>): number {
    const type = isNonNullType(def.type) ? def.type.ofType : def.type;
    if (!isListType(type)) return 1;
    const given = [intArg(field.arguments, 'limit', this.variables), intArg(field.arguments, 'nested_limit', this.variables)].filter((n): n is number => n !== undefined);
    if (given.length) return Math.min(...given);
    const fallback = def.args.find((a) => a.name === 'limit')?.defaultValue;
    return typeof fallback === 'number' ? fallback : FAN_OUT;
  }

  set(set: SelectionSetNode | undefined, parent: GraphQLNamedType | undefined): number {
    if (!set || !parent || !isCompositeType(parent)) return 0;
    const spread = new Set<string>();
    let total = 0;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        if (s.name.value.startsWith('__') || !isObjectType(parent)) continue;
        const def = parent.getFields()[s.name.value];
        if (!def) continue;
        const inputs = LIST_VALUE_COST * (s.arguments ?? []).reduce((n, a) => n + listValues(a.value, this.variables), 0);
        const named = getNamedType(def.type);
        total += inputs + (isCompositeType(named) ? this.rows(s, def) * (1 + this.set(s.selectionSet, named)) : 0);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        total += this.set(s.selectionSet, s.typeCondition ? this.schema.getType(s.typeCondition.name.value) : parent);
      } else if (!spread.has(s.name.value)) {
        // The same fragment spread twice in one selection is executed once (graphql-js merges it).
        spread.add(s.name.value);
        total += this.fragment(s.name.value);
      }
    }
    return total;
  }

  private fragment(name: string): number {
    const known = this.fragmentCosts.get(name);
    if (known !== undefined) return known;
    const f = this.fragments.get(name);
    if (!f || this.open.has(name)) return 0;
    this.open.add(name);
    const cost = this.set(f.selectionSet, this.schema.getType(f.typeCondition.name.value));
    this.open.delete(name);
    this.fragmentCosts.set(name, cost);
    return cost;
  }

  /** Response keys at the root; module fields (objects without arguments: `core`, `function`) are opened. */
  rootFields(set: SelectionSetNode, parent: GraphQLNamedType | undefined, seen = new Set<string>()): number {
    if (!parent || !isObjectType(parent)) return 0;
    const keys = new Set<string>();
    let nested = 0;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        if (s.name.value.startsWith('__')) continue;
        const def = parent.getFields()[s.name.value];
        const named = def && getNamedType(def.type);
        if (def && !def.args.length && named && isObjectType(named) && !isListType(isNonNullType(def.type) ? def.type.ofType : def.type) && s.selectionSet) nested += this.rootFields(s.selectionSet, named, seen);
        else keys.add(s.alias?.value ?? s.name.value);
      } else if (s.kind === Kind.INLINE_FRAGMENT) nested += this.rootFields(s.selectionSet, parent, seen);
      else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        const f = this.fragments.get(s.name.value);
        if (f) nested += this.rootFields(f.selectionSet, parent, seen);
      }
    }
    return keys.size + nested;
  }
}

export function measureRequest(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Variables = {}): RequestCost {
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  const m = new Measure(schema, fragments, variables);
  let aliases = 0;
  visit(document, { Field: (f) => void (f.alias && aliases++) });
  return { cost: m.set(operation.selectionSet, root ?? undefined), rootFields: root ? m.rootFields(operation.selectionSet, root) : 0, aliases };
}

/** The first limit a request exceeds, as the error the client sees; undefined when within all. */
export function costError(cost: RequestCost, limits: CostLimits): GraphQLError | undefined {
  // 400 under application/graphql-response+json; application/json answers 200 (SPEC §1, see UNEXECUTABLE).
  const refuse = (message: string) => new GraphQLError(message, { extensions: { code: ErrorCode.BadUserInput, http: { status: 400 } } });
  if (limits.maxAliases > 0 && cost.aliases > limits.maxAliases) {
    return refuse(`the request uses ${cost.aliases} aliases, more than the limit of ${limits.maxAliases} (MAX_ALIASES)`);
  }
  if (limits.maxRootFields > 0 && cost.rootFields > limits.maxRootFields) {
    return refuse(`the request asks for ${cost.rootFields} root fields, more than the limit of ${limits.maxRootFields} (MAX_ROOT_FIELDS)`);
  }
  if (limits.maxCost > 0 && cost.cost > limits.maxCost) {
    return refuse(`the request has an estimated cost of ${cost.cost}, more than the limit of ${limits.maxCost} (MAX_QUERY_COST); ask for fewer rows with limit or nested_limit`);
  }
  return undefined;
}

/**
 * How deep brackets may nest in a document, and objects and lists in variables. graphql-js parses
 * and coerces values recursively: a filter `_and` 1,000 levels deep overflowed the stack and was
 * answered as an internal error (issue 15). Far beyond any real filter; MAX_DEPTH bounds selections.
 */
export const MAX_NESTING = 100;

/** The deepest bracket nesting of a GraphQL document, strings and comments skipped; linear. */
export function documentNesting(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[' || c === '(') max = Math.max(max, ++depth);
    else if (c === '}' || c === ']' || c === ')') depth--;
    else if (c === '#') while (i < text.length && text[i] !== '\n') i++;
    else if (c === '"') {
      const block = text.startsWith('"""', i);
      const end = block ? '"""' : '"';
      for (i += end.length; i < text.length && !text.startsWith(end, i); i++) if (text[i] === '\\') i++;
      i += end.length - 1;
    }
  }
  return max;
}

/** The deepest nesting of objects and arrays in a JSON value, stopping once past `limit`. */
export function valueNesting(value: unknown, limit: number): number {
  if (!value || typeof value !== 'object') return 0;
  let max = 0;
  // Only containers are pushed: a list of a million numbers costs one pass, no allocation per value.
  const stack: object[] = [value];
  const depths: number[] = [1];
  while (stack.length) {
    const v = stack.pop()!;
    const d = depths.pop()!;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const x of Array.isArray(v) ? v : Object.values(v)) {
      if (x && typeof x === 'object') {
        stack.push(x);
        depths.push(d + 1);
      }
    }
  }
  return max;
}

function nestedTooDeep(what: 'query document' | 'request variables'): GraphQLError {
  const verb = what === 'query document' ? 'nests' : 'nest';
  return new GraphQLError(`the ${what} ${verb} values more than ${MAX_NESTING} levels deep (e.g. _and/_or filters); write the filter flatter`, {
    extensions: { code: ErrorCode.BadUserInput, http: { status: 400 } },
  });
}

/** BAD_USER_INPUT for a document or variables nested beyond MAX_NESTING; undefined otherwise. */
export function nestingError(query: string | undefined, variables: unknown): GraphQLError | undefined {
  if (query && documentNesting(query) > MAX_NESTING) return nestedTooDeep('query document');
  if (valueNesting(variables, MAX_NESTING) > MAX_NESTING) return nestedTooDeep('request variables');
  return undefined;
}

/** The query text and variables of an HTTP GraphQL request as Apollo will read them (POST body or GET search). */
export function requestParts(method: string, body: unknown, search: string): { query: string | undefined; variables: unknown; variablesText?: string } {
  if (method === 'GET') {
    const params = new URLSearchParams(search);
    return { query: params.get('query') ?? undefined, variables: undefined, variablesText: params.get('variables') ?? undefined };
  }
  const b = body as { query?: unknown; variables?: unknown } | null;
  return b && typeof b === 'object' ? { query: typeof b.query === 'string' ? b.query : undefined, variables: b.variables } : { query: undefined, variables: undefined };
}

/**
 * Documents this long are parsed once more before validation to count their aliases: graphql-js
 * validation of 5,000 aliased fields takes hundreds of milliseconds, parsing them a tenth of that.
 */
const EARLY_ALIAS_CHECK = 2048;

function aliasesOf(query: string, maxTokens: number | undefined): number | undefined {
  let document: DocumentNode;
  try {
    document = parse(query, maxTokens ? { maxTokens } : undefined);
  } catch {
    return undefined; // Apollo reports the syntax error
  }
  let aliases = 0;
  visit(document, { Field: (f) => void (f.alias && aliases++) });
  return aliases;
}

/** The response body of a request refused before Apollo saw it (the shape of SPEC §1). */
export function refusalBody(error: GraphQLError): string {
  return JSON.stringify({ data: null, errors: [{ message: error.message, extensions: { code: error.extensions.code } }], extensions: {} });
}

/** Callers exempt from the limits (COST_LIMITS_EXEMPT): listed roles, and `secret_key` for SECRET_KEY callers. */
export function exempt(identity: Identity, list: readonly string[]): boolean {
  if (!list.length) return false;
  const secretKey = identity.authType === 'apiKey' || identity.authType === 'cluster';
  return list.includes(identity.role) && !identity.impersonatedBy ? true : secretKey && list.includes('secret_key');
}

/** The limits of one request as settings give them. */
export function requestGuard(config: Pick<Config, 'MAX_DEPTH' | 'MAX_QUERY_COST' | 'MAX_ROOT_FIELDS' | 'MAX_ALIASES' | 'MAX_TOKENS' | 'COST_LIMITS_EXEMPT'>): InProcessGuard {
  const limits: CostLimits = { maxCost: config.MAX_QUERY_COST, maxRootFields: config.MAX_ROOT_FIELDS, maxAliases: config.MAX_ALIASES };
  return {
    ...(config.MAX_TOKENS > 0 ? { maxTokens: config.MAX_TOKENS } : {}),
    rules: [depthLimit(config.MAX_DEPTH)],
    before: (query, variables, identity, variablesText) => {
      const deep = nestingError(query, variables) ?? (variablesText && documentNesting(variablesText) > MAX_NESTING ? nestedTooDeep('request variables') : undefined);
      if (deep || !query || query.length < EARLY_ALIAS_CHECK || config.MAX_ALIASES <= 0 || exempt(identity, config.COST_LIMITS_EXEMPT)) return deep;
      const aliases = aliasesOf(query, config.MAX_TOKENS);
      return aliases === undefined ? undefined : costError({ cost: 0, rootFields: 0, aliases }, { ...limits, maxCost: 0, maxRootFields: 0 });
    },
    check: (schema, document, operation, variables, identity) =>
      exempt(identity, config.COST_LIMITS_EXEMPT) ? undefined : costError(measureRequest(schema, document, operation, variables), limits),
  };
}

/** Refuses, before execution, a request beyond the limits; the caller's role may be exempt. */
export function costPlugin(guard: InProcessGuard): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(rc) {
          const error = rc.operation && guard.check(rc.schema, rc.document, rc.operation, rc.request.variables ?? {}, rc.contextValue.identity);
          if (error) throw error;
        },
      };
    },
  };
}
