// ResolvedCatalogs -> the SDL of the whole served schema plus an index that tells the runtime what
// each root field means. Placement follows SPEC §3.2: prefixed names at the root, or un-prefixed
// names under a module field for `as_module` sources and `@module` paths.
import type { CatalogFunction, DataObject, InputType, ResolvedCatalog, SourceInfo, StructType, UniqueKey } from '../catalog/model.js';
import { aggregatableStructs, functionArgSdl, hasVector, listArgs, measurementSdl, VECTOR_SEARCH_SDL, names, objectSdl, queryJoinSdl, structAggregationSdl, structFilterSdl } from './object-sdl.js';
import { CATALOG_INTRO_FIELDS, CATALOG_INTRO_SDL } from './catalog-intro-sdl.js';
import { H3_ROOT_FIELD, h3Sdl } from './h3-sdl.js';
import { baseSdl } from './scalars.js';

export type RootKind =
  | 'list' | 'by_pk' | 'unique' | 'aggregation' | 'bucket_aggregation'
  | 'insert' | 'insert_batch' | 'update' | 'delete';

export interface DataRootField {
  readonly kind: RootKind;
  readonly object: string;
  readonly unique?: UniqueKey;
}

/** A function implemented by the server itself (system modules). */
export interface SystemFunction {
  readonly module: string;
  readonly mutation: boolean;
  /** Served at the module's query path (`{ core { storage { ls } } }`) instead of under `function`. */
  readonly query?: boolean;
  readonly name: string;
  readonly args: string;
  readonly returns: string;
  readonly description?: string;
  readonly handler: string;
}

export interface SchemaIndex {
  readonly objects: ReadonlyMap<string, DataObject>;
  /** Structure types (function results, struct-typed columns). */
  readonly structs: ReadonlyMap<string, StructType>;
  /** Input types of the catalogs (`@args` of parameterized views). */
  readonly inputs: ReadonlyMap<string, InputType>;
  /** `ParentType.field` -> data root field. */
  readonly roots: ReadonlyMap<string, DataRootField>;
  /** `ParentType.field` -> system function handler id. */
  readonly functions: ReadonlyMap<string, string>;
  /** `ParentType.field` of the system functions under `mutation { function }`: they run in document order. */
  readonly mutationFunctions: ReadonlySet<string>;
  /** `ParentType.field` -> catalog function (`@function`, SPEC §4.4). */
  readonly catalogFunctions: ReadonlyMap<string, CatalogFunction>;
  /** `<source>.<function>` -> catalog function (`@function_call` fields). */
  readonly functionsByName: ReadonlyMap<string, CatalogFunction>;
  /** `ParentType.field` of module and `function` fields (they resolve to an empty object). */
  readonly modules: ReadonlySet<string>;
}

type Root = 'query' | 'mutation' | 'function' | 'mut_function';
const ROOT_TYPES: Record<Root, string> = { query: 'Query', mutation: 'Mutation', function: 'Function', mut_function: 'MutationFunction' };

interface ModuleNode {
  readonly children: Map<string, ModuleNode>;
  readonly fields: Record<Root, { name: string; sdl: string; root?: DataRootField; fn?: string; catalogFn?: CatalogFunction }[]>;
}

const newNode = (): ModuleNode => ({ children: new Map(), fields: { query: [], mutation: [], function: [], mut_function: [] } });

function nodeAt(tree: ModuleNode, path: readonly string[]): ModuleNode {
  let cur = tree;
  for (const p of path) {
    let next = cur.children.get(p);
    if (!next) cur.children.set(p, (next = newNode()));
    cur = next;
  }
  return cur;
}

const split = (m: string): string[] => (m ? m.split('.').filter(Boolean) : []);

/** Where a source's fields stand: under its module when `as_module`, else at the root (SPEC §3.2). */
const sourcePath = (cat: ResolvedCatalog, module: string): string[] =>
  cat.source.asModule ? [...split(cat.source.module ?? cat.source.name), ...split(module)] : split(module);

function placeObject(tree: ModuleNode, cat: ResolvedCatalog, obj: DataObject): void {
  const path = sourcePath(cat, obj.module);
  const base = cat.source.asModule ? obj.localName : obj.name;
  const node = nodeAt(tree, path);
  const n = names(obj.name);
  const q = node.fields.query;
  const root = (kind: DataRootField['kind'], unique?: UniqueKey): DataRootField => ({ kind, object: obj.name, ...(unique ? { unique } : {}) });
  const desc = obj.description ? `${JSON.stringify(obj.description)}\n  ` : '';
  q.push({ name: base, sdl: `${desc}${base}${listArgs(obj, '', true)}: [${obj.name}]`, root: root('list') });
  const fieldType = (f: string): string => obj.fields.find((x) => x.name === f)?.type ?? 'String';
  const argsArg = obj.args ? `, args: ${obj.args.input}${obj.args.required ? '!' : ''}` : '';
  if (obj.pk.length) {
    q.push({ name: `${base}_by_pk`, sdl: `${base}_by_pk(${obj.pk.map((f) => `${f}: ${fieldType(f)}!`).join(', ')}${argsArg}): ${obj.name}`, root: root('by_pk') });
  }
  for (const u of obj.uniques) {
    if (u.skipQuery) continue;
    q.push({ name: `${base}_${u.suffix}`, sdl: `${base}_${u.suffix}(${u.fields.map((f) => `${f}: ${fieldType(f)}!`).join(', ')}${argsArg}): ${obj.name}`, root: root('unique', u) });
  }
  // Aggregations take every row unless limited: no default limit here.
  const aggArgs = listArgs(obj, '', true).replace('limit: Int = 2000', 'limit: Int').replace('offset: Int = 0', 'offset: Int');
  q.push({ name: `${base}_aggregation`, sdl: `${base}_aggregation${aggArgs}: ${n.aggregation}`, root: root('aggregation') });
  q.push({ name: `${base}_bucket_aggregation`, sdl: `${base}_bucket_aggregation${listArgs(obj, '', true)}: [${n.bucket}]`, root: root('bucket_aggregation') });
  if (obj.kind !== 'table' || obj.readOnly) return;
  const m = node.fields.mutation;
  const insertReturns = obj.pk.length && !obj.isM2m ? obj.name : 'OperationResult';
  m.push({ name: `insert_${base}`, sdl: `insert_${base}(data: ${n.mutInput}!): ${insertReturns}`, root: root('insert') });
  m.push({ name: `insert_${base}_batch`, sdl: `insert_${base}_batch(data: [${n.mutInput}!]!): OperationResult`, root: root('insert_batch') });
  m.push({ name: `update_${base}`, sdl: `update_${base}(filter: ${n.filter}, data: ${n.mutData}!): OperationResult`, root: root('update') });
  m.push({ name: `delete_${base}`, sdl: `delete_${base}(filter: ${n.filter}): OperationResult`, root: root('delete') });
}

function placeFunction(tree: ModuleNode, cat: ResolvedCatalog, fn: CatalogFunction): void {
  const path = sourcePath(cat, fn.module);
  // Injected arguments (@arg_default) are not offered to clients (SPEC §3.3).
  const args = fn.args.filter((a) => a.injected === undefined).map(functionArgSdl);
  const ret = `${fn.returns.list || fn.isTable ? `[${fn.returns.type}]` : fn.returns.type}${fn.returns.nonNull ? '!' : ''}`;
  const desc = fn.description ? `${JSON.stringify(fn.description)}\n  ` : '';
  // Like root fields, functions of a source outside a module carry its prefix (SPEC §3.2).
  const name = !cat.source.asModule && cat.source.prefix ? `${cat.source.prefix}_${fn.name}` : fn.name;
  nodeAt(tree, path).fields[fn.mutation ? 'mut_function' : 'function'].push({ name, sdl: `${desc}${name}${args.length ? `(${args.join(', ')})` : ''}: ${ret}`, catalogFn: fn });
}

const moduleTypeName = (path: readonly string[], root: Root): string =>
  path.length ? `_module_${path.join('_')}_${root}` : ROOT_TYPES[root];

function hasFields(node: ModuleNode, root: Root): boolean {
  return node.fields[root].length > 0 || [...node.children.values()].some((c) => hasFields(c, root));
}

interface Emitted {
  sdl: string[];
  roots: Map<string, DataRootField>;
  functions: Map<string, string>;
  mutationFunctions: Set<string>;
  catalogFunctions: Map<string, CatalogFunction>;
  modules: Set<string>;
}

function emitModule(node: ModuleNode, path: string[], root: Root, out: Emitted): void {
  const typeName = moduleTypeName(path, root);
  const lines: string[] = [];
  const children = [...node.children.entries()].sort(([a], [b]) => a.localeCompare(b));
  for (const [name, child] of children) {
    if (!hasFields(child, root)) continue;
    const childPath = [...path, name];
    lines.push(`  ${name}: ${moduleTypeName(childPath, root)}`);
    out.modules.add(`${typeName}.${name}`);
    emitModule(child, childPath, root, out);
  }
  for (const f of node.fields[root]) {
    lines.push(`  ${f.sdl}`);
    if (f.root) out.roots.set(`${typeName}.${f.name}`, f.root);
    if (f.fn) out.functions.set(`${typeName}.${f.name}`, f.fn);
    if (f.fn && root === 'mut_function') out.mutationFunctions.add(`${typeName}.${f.name}`);
    if (f.catalogFn) out.catalogFunctions.set(`${typeName}.${f.name}`, f.catalogFn);
  }
  if (root === 'query' && !path.length) {
    lines.push('  function: Function');
    out.modules.add('Query.function');
    lines.push('  "Runs the jq expression `query` on the data of this selection; the result is in extensions.jq.<alias or jq> (SPEC §8)."\n  jq(query: String!, include_origin: Boolean = false): Query');
    out.modules.add('Query.jq');
    lines.push(CATALOG_INTRO_FIELDS);
    lines.push(H3_ROOT_FIELD);
  }
  if (root === 'function' && !path.length && !lines.length) lines.push('  "No functions are loaded."\n  _noop: Boolean');
  if (root === 'mutation' && !path.length) {
    lines.push('  function: MutationFunction');
    out.modules.add('Mutation.function');
  }
  out.sdl.push(`type ${typeName} {\n${lines.join('\n')}\n}`);
}

export interface Surface {
  readonly sdl: string;
  readonly index: SchemaIndex;
}

/**
 * The operation `/subscribe` serves (SPEC §4.5, §13), declared so GraphiQL, Apollo Client and codegen
 * tools see and validate it; `/query` refuses subscriptions (src/pipeline/validation.ts).
 */
const SUBSCRIPTION_SDL = `type Subscription {
  "Runs the selection (any query /query accepts) and sends its result; with an interval, again every interval (count 0: until unsubscribed). Served on /subscribe (graphql-ws)."
  query(
    "How often to run: a duration (\\"10s\\", \\"1m\\") or seconds, at least 1s; left out or 0: once, then complete."
    interval: Interval
    "Results to send before completing; 0: until the client unsubscribes."
    count: Int = 0
  ): Query
}`;

/** Builds the SDL and index for a set of catalogs and system functions. */
/**
 * `offersH3`: whether the root h3 query offers a source's objects, by its kind (src/sources/kinds.ts
 * `capabilities.h3`: its SQL compiler can group by H3 cell).
 */
export function buildSurface(
  catalogs: readonly ResolvedCatalog[], functions: readonly SystemFunction[], extraSdl: readonly string[], offersH3: (source: SourceInfo) => boolean,
): Surface {
  const byName = new Map<string, DataObject>();
  const sorted = [...catalogs].sort((a, b) => a.source.name.localeCompare(b.source.name));
  for (const c of sorted) for (const o of c.objects) byName.set(o.name, o);
  const fns = new Map(sorted.flatMap((c) => c.functions.map((f) => [`${c.source.name}.${f.name}`, f] as const)));
  const tree = newNode();
  const out: Emitted = { sdl: [baseSdl(), CATALOG_INTRO_SDL, ...extraSdl], roots: new Map(), functions: new Map(), mutationFunctions: new Set(), catalogFunctions: new Map(), modules: new Set() };
  for (const c of sorted) {
    const structAggs = aggregatableStructs(c.structs, c.objects);
    for (const i of c.inputs) out.sdl.push(`input ${i.name} {\n${i.fields.map((f) => `  ${f.name}: ${f.list ? `[${f.type}]` : f.type}${f.nonNull ? '!' : ''}`).join('\n')}\n}`);
    for (const o of c.objects) {
      out.sdl.push(...objectSdl(o, byName, fns, structAggs));
      placeObject(tree, c, o);
    }
    for (const st of c.structs) {
      const desc = st.description ? `${JSON.stringify(st.description)}\n` : '';
      out.sdl.push(`${desc}type ${st.name} {\n${st.fields.map((f) => `  ${f.name}: ${f.list ? `[${f.type}]` : f.type}${f.nonNull ? '!' : ''}`).join('\n')}\n}`);
      out.sdl.push(structFilterSdl(st));
      if (structAggs.has(st.name)) out.sdl.push(structAggregationSdl(st, structAggs));
    }
    for (const fn of c.functions) placeFunction(tree, c, fn);
  }
  if (byName.size) out.sdl.push(...queryJoinSdl([...byName.values()]));
  if ([...byName.values()].some(hasVector)) out.sdl.push(...VECTOR_SEARCH_SDL);
  out.sdl.push(...measurementSdl([...byName.values()]));
  // Only sources whose SQL compiler can group by H3 cell (`h3Cells` of src/sql/compiler.ts:
  // DuckDB in SQL, PostgreSQL through the server's cell map); MySQL objects are not offered.
  const cellObjects = new Set(sorted.filter((c) => offersH3(c.source)).flatMap((c) => c.objects.map((o) => o.name)));
  out.sdl.push(...h3Sdl([...byName.values()].filter((o) => cellObjects.has(o.name))));
  for (const f of [...functions].sort((a, b) => a.name.localeCompare(b.name))) {
    const node = nodeAt(tree, split(f.module));
    const desc = f.description ? `${JSON.stringify(f.description)}\n  ` : '';
    node.fields[f.query ? 'query' : f.mutation ? 'mut_function' : 'function'].push({ name: f.name, sdl: `${desc}${f.name}${f.args}: ${f.returns}`, fn: f.handler });
  }
  for (const root of ['query', 'mutation', 'function', 'mut_function'] as Root[]) {
    if (hasFields(tree, root) || root === 'query' || root === 'function') emitModule(tree, [], root, out);
  }
  if (!hasFields(tree, 'mut_function')) {
    out.sdl.push('type MutationFunction {\n  "No mutation functions are loaded."\n  _noop: Boolean\n}');
  }
  if (!out.sdl.some((s) => s.startsWith('type Mutation {'))) out.sdl.push('type Mutation {\n  function: MutationFunction\n}');
  out.modules.add('Mutation.function');
  out.sdl.push(SUBSCRIPTION_SDL);
  const inputs = new Map(sorted.flatMap((c) => c.inputs.map((i) => [i.name, i] as const)));
  return { sdl: out.sdl.join('\n\n') + '\n', index: { objects: byName, structs: new Map(sorted.flatMap((c) => c.structs.map((st) => [st.name, st] as const))), inputs, roots: out.roots, functions: out.functions, mutationFunctions: out.mutationFunctions, catalogFunctions: out.catalogFunctions, functionsByName: fns, modules: out.modules } };
}
