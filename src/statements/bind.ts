// Plans reused across variable values (issue 16 item 4, DESIGN.md §4): a read planned once for an
// operation serves later requests with other values, its parameters bound per request.
//
// Which variable values may change without changing the plan is learnt, not assumed: on the first
// request the field is planned twice, once with the real values and once with each candidate value
// (a non-empty String-like or number scalar inside the variables) replaced by a marker of the same
// kind. A candidate is bound per request only where its marker comes out as a whole statement
// parameter and the real value came out unchanged in the same place of an identical statement.
// Anything else (a value inlined, transformed, hashed, tested, or lost) keeps the value in the
// cache key, as every value was before. Booleans, enums, JSON, nulls, empty strings and list
// lengths are always part of the key: the planner branches on them.
import {
  type FieldNode, type FragmentDefinitionNode, type GraphQLInputType, type GraphQLSchema, type OperationDefinitionNode, isEnumType, isInputObjectType, isListType, isNonNullType,
  isScalarType, typeFromAST, visit,
} from 'graphql';
import type { CompiledSql } from '../sql/compiler.js';
import { stringifyJson } from '../shared/json.js';

/** Where a statement parameter comes from on a later request. */
export type ParamSource =
  | { readonly kind: 'const'; readonly value: unknown }
  | { readonly kind: 'var'; readonly path: readonly (string | number)[] }
  | { readonly kind: 'array'; readonly items: readonly ParamSource[] }
  /** A list sent as the JSON text of its values as text (DuckDB's IN list, src/sql/dialects/duckdb.ts). */
  | { readonly kind: 'json_texts'; readonly items: readonly ParamSource[] };

/** The variables of one request, seen by what may change without planning again. */
export interface VariableShape {
  /** The values that decide the plan (candidates replaced by a placeholder). */
  readonly key: string;
  /** The variables with every candidate replaced by its marker; undefined when there is none. */
  readonly marked?: Record<string, unknown>;
  /** Marker -> path of the candidate inside the variables. */
  readonly paths: ReadonlyMap<unknown, readonly (string | number)[]>;
}

/** Scalars whose value the planner reads as a whole: never candidates. */
const KEYED_SCALARS = new Set(['Boolean', 'JSON', 'BigInt']);
const MARK = '\u0001svc-var:';
const NUMBER_MARK = 987_654_321;

const usedByField = new WeakMap<FieldNode, ReadonlySet<string>>();

/** The variables a root field's selection mentions (through fragments too): the only ones its plan can depend on. */
export function fieldVariables(nodes: readonly FieldNode[], fragments: Readonly<Record<string, FragmentDefinitionNode>>): ReadonlySet<string> {
  const first = nodes[0];
  const hit = first && usedByField.get(first);
  if (hit) return hit;
  const names = new Set<string>();
  const seen = new Set<string>();
  const walk = (node: FieldNode | FragmentDefinitionNode) =>
    visit(node, {
      Variable: (v) => void names.add(v.name.value),
      FragmentSpread: (f) => {
        const def = fragments[f.name.value];
        if (def && !seen.has(def.name.value)) {
          seen.add(def.name.value);
          walk(def);
        }
      },
    });
  for (const n of nodes) walk(n);
  if (first) usedByField.set(first, names);
  return names;
}

/** The shape of the variables `used` of one request (all when `used` is not given). */
export function variableShape(
  schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Readonly<Record<string, unknown>>, used?: ReadonlySet<string>,
  /** Paths (JSON text) of candidates that must stay in the key: their value decides the plan. */
  keyed?: ReadonlySet<string>,
): VariableShape {
  const paths = new Map<unknown, readonly (string | number)[]>();
  const walk = (value: unknown, type: GraphQLInputType | undefined, path: readonly (string | number)[]): { key: unknown; marked: unknown } => {
    if (type && isNonNullType(type)) return walk(value, type.ofType, path);
    if (value === null || value === undefined || !type) return { key: value ?? null, marked: value };
    if (isListType(type)) {
      if (!Array.isArray(value)) return walk(value, type.ofType, path);
      const items = value.map((v, i) => walk(v, type.ofType, [...path, i]));
      return { key: items.map((x) => x.key), marked: items.map((x) => x.marked) };
    }
    if (isInputObjectType(type)) {
      if (typeof value !== 'object' || Array.isArray(value)) return { key: value, marked: value };
      const fields = type.getFields();
      const key: Record<string, unknown> = {};
      const marked: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const x = walk(v, fields[k]?.type, [...path, k]);
        key[k] = x.key;
        marked[k] = x.marked;
      }
      return { key, marked };
    }
    if (isEnumType(type) || !isScalarType(type) || KEYED_SCALARS.has(type.name) || keyed?.has(JSON.stringify(path))) return { key: value, marked: value };
    let marker: unknown;
    if (typeof value === 'string' && value !== '') marker = `${MARK}${paths.size}\u0001`;
    else if (typeof value === 'number' && Number.isFinite(value)) marker = type.name === 'Float' ? NUMBER_MARK + paths.size + 0.5 : NUMBER_MARK + paths.size;
    else return { key: value, marked: value };
    paths.set(marker, path);
    return { key: { $: typeof value }, marked: marker };
  };
  const key: Record<string, unknown> = {};
  const marked: Record<string, unknown> = {};
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    if (!(name in variables) || (used && !used.has(name))) continue;
    const x = walk(variables[name], typeFromAST(schema, def.type as never) as GraphQLInputType | undefined, [name]);
    key[name] = x.key;
    marked[name] = x.marked;
  }
  return { key: stringifyJson(key), ...(paths.size ? { marked } : {}), paths };
}

/**
 * The candidates of `shape` that did not come out as a whole parameter of `marked` (inlined into
 * the text, transformed or read by the planner): planning again with only the others marked may
 * still bind those.
 */
export function unboundPaths(shape: VariableShape, marked: CompiledSql): Set<string> {
  const reached = new Set<unknown>();
  const byText = new Map([...shape.paths.keys()].map((k) => [String(k), k]));
  const note = (p: unknown): void => {
    if (Array.isArray(p)) return p.forEach(note);
    if (shape.paths.has(p)) return void reached.add(p);
    if (typeof p !== 'string' || !p.startsWith('[') || !mentionsMarker(p)) return;
    try {
      const texts: unknown = JSON.parse(p);
      if (Array.isArray(texts)) for (const t of texts) if (byText.has(String(t))) reached.add(byText.get(String(t)));
    } catch {
      // not JSON: the markers in it stay unbound
    }
  };
  marked.params.forEach(note);
  const out = new Set<string>();
  for (const [m, path] of shape.paths) if (!reached.has(m)) out.add(JSON.stringify(path));
  return out;
}

/** The key of plans kept per values: every value the field mentions. */
export function valuesKey(variables: Readonly<Record<string, unknown>>, used: ReadonlySet<string>): string {
  return `=${stringifyJson(Object.fromEntries(Object.entries(variables).filter(([k]) => used.has(k))))}`;
}

function at(value: unknown, path: readonly (string | number)[]): unknown {
  let v = value;
  for (const p of path) v = (v as Record<string | number, unknown> | null | undefined)?.[p];
  return v;
}

const sameValue = (a: unknown, b: unknown): boolean => a === b || stringifyJson(a ?? null) === stringifyJson(b ?? null);

/**
 * Where each parameter of `real` comes from, learnt by comparing it with `marked` (the same field
 * planned with markers); undefined unless every candidate that reached the statement did so as a
 * whole parameter, unchanged, and the two statements are otherwise the same.
 */
export function paramSources(real: CompiledSql, marked: CompiledSql, shape: VariableShape, variables: Readonly<Record<string, unknown>>): ParamSource[] | undefined {
  if (real.sql !== marked.sql || real.params.length !== marked.params.length) return undefined;
  const found = new Set<unknown>();
  const source = (r: unknown, m: unknown): ParamSource | undefined => {
    const path = shape.paths.get(m);
    if (path) {
      if (at(variables, path) !== r) return undefined;
      found.add(m);
      return { kind: 'var', path };
    }
    if (Array.isArray(m) && Array.isArray(r) && m.length === r.length && m.some((x) => shape.paths.has(x))) {
      const items = m.map((x, i) => source(r[i], x));
      return items.every((x) => x !== undefined) ? { kind: 'array', items: items as ParamSource[] } : undefined;
    }
    if (typeof m === 'string' && m.startsWith('[') && mentionsMarker(m)) return jsonTexts(r, m);
    // Not a marker: the value must not depend on the variables at all.
    return sameValue(r, m) && !mentionsMarker(m) ? { kind: 'const', value: r } : undefined;
  };
  /** A JSON array of texts whose every element is a marker's text; checked against the real one. */
  const jsonTexts = (r: unknown, m: string): ParamSource | undefined => {
    let texts: unknown;
    try {
      texts = JSON.parse(m);
    } catch {
      return undefined;
    }
    if (!Array.isArray(texts)) return undefined;
    const byText = new Map([...shape.paths.keys()].map((k) => [String(k), k]));
    const markers = texts.map((t) => (typeof t === 'string' ? byText.get(t) : undefined));
    if (markers.some((x) => x === undefined)) return undefined;
    const items: ParamSource[] = markers.map((x) => ({ kind: 'var', path: shape.paths.get(x)! }));
    const source: ParamSource = { kind: 'json_texts', items };
    if (bindParams([source], variables)[0] !== r) return undefined;
    for (const x of markers) found.add(x);
    return source;
  };
  const out: ParamSource[] = [];
  for (let i = 0; i < real.params.length; i++) {
    const s = source(real.params[i], marked.params[i]);
    if (!s) return undefined;
    out.push(s);
  }
  // A candidate that reached no parameter was read by the planner: its value decides the plan.
  return found.size === shape.paths.size ? out : undefined;
}

function mentionsMarker(v: unknown): boolean {
  // Also as JSON text writes it (a list sent as one JSON parameter).
  if (typeof v === 'string') return v.includes(MARK) || v.includes(JSON.stringify(MARK).slice(1, -1));
  if (typeof v === 'number') return v >= NUMBER_MARK && v < NUMBER_MARK + 1_000_000;
  if (Array.isArray(v)) return v.some(mentionsMarker);
  return false;
}

/** The parameters of a reused plan for this request's variables. */
export function bindParams(sources: readonly ParamSource[], variables: Readonly<Record<string, unknown>>): unknown[] {
  const value = (s: ParamSource): unknown => {
    switch (s.kind) {
      case 'const': return s.value;
      case 'var': return at(variables, s.path);
      case 'array': return s.items.map(value);
      case 'json_texts': return JSON.stringify(s.items.map((x) => {
        const v = value(x);
        return v === null || v === undefined ? null : String(v);
      }));
    }
  };
  return sources.map(value);
}
