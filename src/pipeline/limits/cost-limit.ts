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
  type ArgumentNode, type DocumentNode, type FieldNode, type FragmentDefinitionNode, getNamedType, type GraphQLField,
  type GraphQLNamedType, GraphQLError, type GraphQLSchema, getVariableValues, isCompositeType, isListType, isNonNullType, isObjectType, Kind,
  type OperationDefinitionNode, type SelectionSetNode, Source, type ValidationRule, type ValueNode, visit,
} from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import type { Config } from '../../config/schema.js';
import type { RequestContext } from '../../executor/request-context.js';
import type { Identity } from '../../auth/identity.js';
import { ErrorCode } from '../../shared/errors.js';
import { noteLimitRefusal } from '../../shared/limit-refusal.js';
import { depthLimit } from './depth-limit.js';

/**
 * The limits /query applies (MAX_DEPTH, MAX_QUERY_COST, ...), also to what a caller runs in the
 * process (querySvc, a client acting for a request's caller); the system identity goes without.
 */
export interface RequestLimits {
  /** graphql-js parse option: a longer document is refused before it is parsed whole. */
  readonly maxTokens?: number;
  readonly rules: readonly ValidationRule[];
  /** Refuses a request before parsing (values nested too deep for the recursive parser, too many aliases). */
  before?(query: string | undefined, variables: unknown, identity: Identity, variablesText?: string): GraphQLError | undefined;
  check(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>, identity: Identity): GraphQLError | undefined;
}

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

const measured = new WeakMap<GraphQLSchema, WeakMap<OperationDefinitionNode, RequestCost>>();

/** measureRequest; an operation without variables costs the same every time, so it is measured once per schema. */
function measuredOnce(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Variables): RequestCost {
  if (operation.variableDefinitions?.length) return measureRequest(schema, document, operation, variables);
  let bySchema = measured.get(schema);
  if (!bySchema) measured.set(schema, (bySchema = new WeakMap()));
  let cost = bySchema.get(operation);
  if (!cost) bySchema.set(operation, (cost = measureRequest(schema, document, operation, variables)));
  return cost;
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

/** What one pass over a document's text tells before graphql-js parses it. */
export interface DocumentShape {
  /** The deepest nesting of brackets. */
  readonly nesting: number;
  /** Aliases written (a name followed by `:` in a selection set). */
  readonly aliases: number;
  /** Lexical tokens, counted like graphql-js's maxTokens (comments and commas are not tokens). */
  readonly tokens: number;
  /** The first limit crossed, reading from the start, and the offset of the character that crossed it; the scan stopped there. */
  readonly crossed?: { readonly limit: 'nesting' | 'aliases' | 'tokens'; readonly offset: number };
}

/** Limits a scan stops at (0: none). */
export interface DocumentLimits {
  readonly nesting: number;
  readonly aliases: number;
  readonly tokens: number;
}

const isNameStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isNamePart = (c: number) => isNameStart(c) || (c >= 48 && c <= 57);

/**
 * Bracket nesting, aliases and tokens of a GraphQL document in one linear pass over its text, strings
 * and comments skipped. Parsing 5,000 aliases with graphql-js took tens of milliseconds of the one
 * event loop; this pass takes a fraction of a millisecond, so an over-limit document is refused
 * before any parsing (issue 15 item 8). With `limits` it stops at the first one crossed, so an alias
 * flood or a deep `_and` costs the part read up to the limit, not the whole text (issue 31). An alias
 * is a name followed by `:` inside braces with no parenthesis open: arguments, variable definitions
 * and object values all sit inside parentheses. The count after parsing (measureRequest) stays the
 * exact one; this one only refuses early.
 */
export function scanDocument(text: string, limits?: DocumentLimits): DocumentShape {
  const maxNesting = limits?.nesting || Infinity;
  const maxAliases = limits?.aliases || Infinity;
  const maxTokens = limits?.tokens || Infinity;
  let depth = 0;
  let max = 0;
  let parens = 0;
  let aliases = 0;
  // Lexical tokens as graphql-js counts them for maxTokens (names, numbers, strings, punctuators).
  let tokens = 0;
  let afterName = false;
  const n = text.length;
  const stop = (limit: 'nesting' | 'aliases' | 'tokens', offset: number): DocumentShape => ({ nesting: max, aliases, tokens, crossed: { limit, offset } });
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // Whitespace and commas (insignificant in GraphQL) keep a name waiting for its colon.
    if (c === 32 || c === 10 || c === 13 || c === 9 || c === 44 || c === 0xfeff) continue;
    if (c !== 35 && ++tokens > maxTokens) return stop('tokens', i);
    if (isNameStart(c)) {
      while (i + 1 < n && isNamePart(text.charCodeAt(i + 1))) i++;
      afterName = true;
      continue;
    }
    if (c === 35) {
      // # comment, to the end of the line: not a token
      while (i + 1 < n && text.charCodeAt(i + 1) !== 10 && text.charCodeAt(i + 1) !== 13) i++;
      continue;
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      // A number (-1, 2.5e3) is one token.
      while (i + 1 < n && isNumberPart(text.charCodeAt(i + 1))) i++;
      afterName = false;
      continue;
    }
    if (c === 46 && text.startsWith('...', i)) i += 2;
    if (c === 58 && afterName && parens === 0 && depth > 0 && ++aliases > maxAliases) return stop('aliases', i);
    afterName = false;
    if (c === 123 || c === 91 || c === 40) {
      if (++depth > max) max = depth;
      if (max > maxNesting) return stop('nesting', i);
      if (c === 40) parens++;
    } else if (c === 125 || c === 93 || c === 41) {
      depth--;
      if (c === 41) parens--;
    } else if (c === 34) {
      const end = text.startsWith('"""', i) ? '"""' : '"';
      for (i += end.length; i < n && !text.startsWith(end, i); i++) if (text.charCodeAt(i) === 92) i++;
      i += end.length - 1;
    }
  }
  return { nesting: max, aliases, tokens };
}

const SCANNED_KEPT = 1000;
/** Longer texts are scanned every time: the kept texts stay within a few megabytes. */
const SCANNED_LENGTH = 16 * 1024;

/** Shapes of recent documents under one set of limits: a query text sent again (the common case) is scanned once. */
class DocumentScans {
  private readonly scanned = new Map<string, DocumentShape>();

  constructor(readonly limits: DocumentLimits) {}

  scan(text: string): DocumentShape {
    if (text.length > SCANNED_LENGTH) return scanDocument(text, this.limits);
    let shape = this.scanned.get(text);
    if (!shape) {
      if (this.scanned.size >= SCANNED_KEPT) this.scanned.delete(this.scanned.keys().next().value as string);
      this.scanned.set(text, (shape = scanDocument(text, this.limits)));
    }
    return shape;
  }
}

const isNumberPart = (c: number): boolean => (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;

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

/** The longest list anywhere in a JSON value (variables); one pass, containers only. */
export function longestList(value: unknown): number {
  if (!value || typeof value !== 'object') return 0;
  let max = 0;
  const stack: object[] = [value];
  while (stack.length) {
    const v = stack.pop()!;
    if (Array.isArray(v) && v.length > max) max = v.length;
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (x && typeof x === 'object') stack.push(x);
  }
  return max;
}

function listTooLong(length: number, limit: number): GraphQLError {
  return new GraphQLError(`the request variables hold a list of ${length} values, more than the limit of ${limit} (MAX_LIST_VALUES); split the request`, {
    extensions: { code: ErrorCode.BadUserInput, http: { status: 400 } },
  });
}

/**
 * Over MAX_TOKENS, or over ANONYMOUS_MAX_TOKENS for an anonymous caller: refused as graphql-js's
 * parser refuses a document over its maxTokens (a syntax error, 400 for every client), so a client
 * handles both alike.
 */
function tooManyTokens(limit: number, at?: Located, anonymous = false): GraphQLError {
  const which = anonymous ? `, the limit of an anonymous request (ANONYMOUS_MAX_TOKENS); sign in for a larger one` : ' (MAX_TOKENS)';
  return new GraphQLError(`the query document has more than ${limit} tokens${which}`, { ...at, extensions: { code: ErrorCode.GraphQLParseFailed, http: { status: 400 } } });
}

function nestedTooDeep(what: 'query document' | 'request variables', at?: Located): GraphQLError {
  const verb = what === 'query document' ? 'nests' : 'nest';
  return new GraphQLError(`the ${what} ${verb} values more than ${MAX_NESTING} levels deep (e.g. _and/_or filters); write the filter flatter`, {
    ...at,
    extensions: { code: ErrorCode.BadUserInput, http: { status: 400 } },
  });
}

function tooManyAliases(limit: number, at: Located): GraphQLError {
  return new GraphQLError(`the request uses more than ${limit} aliases, the limit of one request (MAX_ALIASES)`, { ...at, extensions: { code: ErrorCode.BadUserInput, http: { status: 400 } } });
}

/** Where in the document a scan stopped: graphql-js turns it into the error's line and column. */
type Located = { readonly source: Source; readonly positions: readonly number[] };

/** The refusal of the first limit a document crossed, located at the character that crossed it. */
function documentRefusal(query: string, crossed: NonNullable<DocumentShape['crossed']>, limits: DocumentLimits, anonymous: boolean): GraphQLError {
  // graphql-js finds the line by searching its source for line breaks past the position too: on a
  // one-line 116 kB alias flood that search cost more than the scan. The text up to the offset is enough.
  const at = { source: new Source(query.slice(0, crossed.offset + 1)), positions: [crossed.offset] };
  if (crossed.limit === 'nesting') return nestedTooDeep('query document', at);
  return crossed.limit === 'aliases' ? tooManyAliases(limits.aliases, at) : tooManyTokens(limits.tokens, at, anonymous);
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

/** The response body of a request refused before Apollo saw it (the shape of SPEC §1). */
export function refusalBody(error: GraphQLError): string {
  const locations = error.locations ? { locations: error.locations } : {};
  return JSON.stringify({ data: null, errors: [{ message: error.message, ...locations, extensions: { code: error.extensions.code } }], extensions: {} });
}

/** The first variable whose value does not fit its declared type (graphql-js's coercion), as BAD_USER_INPUT. */
export function invalidVariable(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Record<string, unknown>): GraphQLError | undefined {
  if (!operation.variableDefinitions?.length) return undefined;
  const coerced = getVariableValues(schema, operation.variableDefinitions, variables, { maxErrors: 1 });
  const e = coerced.errors?.[0];
  if (!e) return undefined;
  // graphql-js names the variable and why: `Variable "$n" got invalid value 1e+23; Int cannot represent ...`.
  return new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: ErrorCode.BadUserInput } });
}

/** Callers exempt from the limits (COST_LIMITS_EXEMPT): listed roles, and `secret_key` for SECRET_KEY callers. */
export function exempt(identity: Identity, list: readonly string[]): boolean {
  if (!list.length) return false;
  const secretKey = identity.authType === 'apiKey' || identity.authType === 'cluster';
  return list.includes(identity.role) && !identity.impersonatedBy ? true : secretKey && list.includes('secret_key');
}

/** The limits of one request as settings give them. */
export function requestGuard(config: Pick<Config, 'MAX_DEPTH' | 'MAX_QUERY_COST' | 'MAX_ROOT_FIELDS' | 'MAX_ALIASES' | 'MAX_TOKENS' | 'MAX_LIST_VALUES' | 'COST_LIMITS_EXEMPT'> & Partial<Pick<Config, 'ANONYMOUS_MAX_TOKENS'>>): RequestLimits {
  const limits: CostLimits = { maxCost: config.MAX_QUERY_COST, maxRootFields: config.MAX_ROOT_FIELDS, maxAliases: config.MAX_ALIASES };
  // The document limits a scan stops at: with MAX_ALIASES, and without it for callers exempt from it;
  // an anonymous caller's token limit is the smaller of MAX_TOKENS and ANONYMOUS_MAX_TOKENS.
  const tokens = Math.max(0, config.MAX_TOKENS);
  const own = config.ANONYMOUS_MAX_TOKENS ?? 0;
  const anonymousTokens = own > 0 && (tokens === 0 || own < tokens) ? own : tokens;
  const scansOf = (t: number) => ({
    bounded: new DocumentScans({ nesting: MAX_NESTING, aliases: Math.max(0, config.MAX_ALIASES), tokens: t }),
    unaliased: new DocumentScans({ nesting: MAX_NESTING, aliases: 0, tokens: t }),
  });
  const signedIn = scansOf(tokens);
  const anonymous = anonymousTokens === tokens ? signedIn : scansOf(anonymousTokens);
  return {
    ...(config.MAX_TOKENS > 0 ? { maxTokens: config.MAX_TOKENS } : {}),
    rules: [depthLimit(config.MAX_DEPTH)],
    before: (query, variables, identity, variablesText) => {
      // The document first, stopping at the first limit it crosses (issue 31): an alias flood or a
      // deep `_and` costs the part read up to the limit.
      const own = identity.authType === 'anonymous' ? anonymous : signedIn;
      const scans = config.MAX_ALIASES > 0 && !exempt(identity, config.COST_LIMITS_EXEMPT) ? own.bounded : own.unaliased;
      const crossed = query ? scans.scan(query).crossed : undefined;
      if (crossed) return documentRefusal(query!, crossed, scans.limits, scans.limits.tokens !== tokens);
      // POST bodies were checked while they streamed in (src/pipeline/limits/body-scan.ts); GET's
      // variables and in-process callers' are checked here.
      if (valueNesting(variables, MAX_NESTING) > MAX_NESTING || (variablesText && scanDocument(variablesText, { nesting: MAX_NESTING, aliases: 0, tokens: 0 }).crossed)) return nestedTooDeep('request variables');
      // Before graphql-js coerces every value of a long list (an `in` list of 200,000 ids, issue 31).
      const longest = config.MAX_LIST_VALUES > 0 ? longestList(variables) : 0;
      return longest > config.MAX_LIST_VALUES ? listTooLong(longest, config.MAX_LIST_VALUES) : undefined;
    },
    check: (schema, document, operation, variables, identity) => {
      // Values that do not fit their variable's type are reported as such, before anything is
      // measured from them (a huge Int was an "estimated cost of 1e+23").
      const invalid = invalidVariable(schema, operation, variables);
      if (invalid || exempt(identity, config.COST_LIMITS_EXEMPT)) return invalid;
      const over = costError(measuredOnce(schema, document, operation, variables), limits);
      if (over) noteLimitRefusal();
      return over;
    },
  };
}

/** Refuses, before execution, a request beyond the limits; the caller's role may be exempt. */
export function costPlugin(guard: RequestLimits): ApolloServerPlugin<RequestContext> {
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
