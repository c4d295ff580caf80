// SDL -> ResolvedCatalog, in stages: parse, collect, validate, prefix, relations (DESIGN.md §2).
// Used by codegen and, at run time, by load_data_source.
import {
  type ConstDirectiveNode, type DefinitionNode, type DocumentNode, type FieldDefinitionNode, GraphQLError, Kind,
  type ObjectTypeDefinitionNode, parse, print, Source, type TypeNode, valueFromASTUntyped,
} from 'graphql';
import { parseTtl } from '../shared/ttl.js';
import { argumentProblem, DIRECTIVES, type DirectiveSite, siteProblem } from './directives.js';
import { CatalogError, locOf, where } from './errors.js';
import { joinRelation, type PendingJoin } from './joins.js';
import {
  type CatalogFunction, type ColumnField, type DataObject, deepFreeze, type FunctionCallField, type InputType, isScalar, MEASUREMENT_FUNCS, type Relation, type StructType,
  type ResolvedCatalog, type ScalarName, type SourceInfo, type UniqueKey,
} from './model.js';

export interface CatalogFile {
  readonly file: string;
  readonly text: string;
}

export type Args = Record<string, unknown>;

/**
 * The rules of the compiler that depend on the source's kind, given by the kind
 * (src/sources/<kind>/index.ts `capabilities.catalog`): the compiler knows no kind by name.
 */
export interface CatalogTraits {
  /**
   * A function returning a list of a structured type with no `sql` is a database table function
   * (hugr's form); false where a function is not SQL (http: a REST call answering a list).
   */
  readonly tableFunctions: boolean;
}

const SQL_TRAITS: CatalogTraits = { tableFunctions: true };

export interface Ctx {
  readonly source: SourceInfo;
  readonly traits?: CatalogTraits;
  readonly problems: string[];
  readonly warnings: string[];
}

const FUNCTION_ROOTS = new Set(['Function', 'MutationFunction']);

function directiveArgs(d: ConstDirectiveNode): Args {
  const out: Args = {};
  for (const a of d.arguments ?? []) out[a.name.value] = valueFromASTUntyped(a.value);
  return out;
}

export function directives(nodes: readonly ConstDirectiveNode[] | undefined): Map<string, Args[]> {
  const out = new Map<string, Args[]>();
  for (const d of nodes ?? []) {
    const list = out.get(d.name.value) ?? [];
    list.push(directiveArgs(d));
    out.set(d.name.value, list);
  }
  return out;
}

export function checkDirectives(ctx: Ctx, file: string, nodes: readonly ConstDirectiveNode[] | undefined, site: DirectiveSite): void {
  for (const d of nodes ?? []) {
    const misplaced = siteProblem(d.name.value, site);
    if (misplaced) {
      ctx.problems.push(`${misplaced} ${where(locOf(d, file))}`);
      if (!DIRECTIVES[d.name.value]) continue;
    }
    for (const a of d.arguments ?? []) {
      const wrong = argumentProblem(d.name.value, a);
      if (wrong) ctx.problems.push(`${wrong} ${where(locOf(a, file))}`);
      // Seconds or a duration ("30s", "5m", "1h"); a wrong one is the author's, found at load.
      if (d.name.value === 'cache' && a.name.value === 'ttl') {
        try {
          parseTtl(valueFromASTUntyped(a.value) as number | string);
        } catch (e) {
          ctx.problems.push(`${(e as Error).message} ${where(locOf(a, file))}`);
        }
      }
    }
  }
}

export function unwrap(t: TypeNode): { name: string; list: boolean; nonNull: boolean } {
  let nonNull = false;
  let list = false;
  let cur = t;
  if (cur.kind === Kind.NON_NULL_TYPE) { nonNull = true; cur = cur.type; }
  if (cur.kind === Kind.LIST_TYPE) { list = true; cur = cur.type; if (cur.kind === Kind.NON_NULL_TYPE) cur = cur.type; }
  if (cur.kind !== Kind.NAMED_TYPE) return { name: '?', list, nonNull };
  return { name: cur.name.value, list, nonNull };
}

/**
 * hugr's catalogs document the types they extend (`"Customer accounts" extend type customers`),
 * which the GraphQL grammar has no place for. The description is blanked out of the text (lines and
 * columns kept) and kept per document: `extensionDescription(doc, "customers")`.
 */
const EXTENSION_DESCRIPTION = /("""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*")(\s*extend\s+type\s+([_A-Za-z][_0-9A-Za-z]*))/g;
const extensionDescriptions = new WeakMap<DocumentNode, Map<string, string>>();

export function extensionDescription(doc: DocumentNode, type: string): string | undefined {
  return extensionDescriptions.get(doc)?.get(type);
}

function withoutExtensionDescriptions(text: string): { text: string; found: Map<string, string> } {
  const found = new Map<string, string>();
  const out = text.replace(EXTENSION_DESCRIPTION, (_m, desc: string, rest: string, type: string) => {
    found.set(type, desc.startsWith('"""') ? desc.slice(3, -3).trim() : (JSON.parse(desc) as string));
    return `${desc.replace(/[^\n]/g, ' ')}${rest}`;
  });
  return { text: out, found };
}

export function parseFiles(ctx: Ctx, files: readonly CatalogFile[]): DocumentNode[] {
  const docs: DocumentNode[] = [];
  for (const f of files) {
    // A file of comments only (a placeholder beside a self-defined source's own description) defines nothing.
    if (!f.text.replace(/#[^\n]*/g, '').trim()) continue;
    try {
      const { text, found } = withoutExtensionDescriptions(f.text);
      const doc = parse(new Source(text, f.file));
      if (found.size) extensionDescriptions.set(doc, found);
      docs.push(doc);
    } catch (e) {
      const ge = e as GraphQLError;
      const loc = ge.locations?.[0];
      ctx.problems.push(`${ge.message.replace(/^Syntax Error: /, 'syntax error: ')} (${f.file}:${loc?.line ?? 0})`);
    }
  }
  return docs;
}

function typeName(ctx: Ctx, local: string): string {
  return ctx.source.prefix ? `${ctx.source.prefix}_${local}` : local;
}

export function compileField(ctx: Ctx, file: string, f: FieldDefinitionNode): ColumnField | undefined {
  const d = directives(f.directives);
  const t = unwrap(f.type);
  const loc = locOf(f, file);
  // A non-scalar type may be a structure type of the catalog (checked once those are known).
  const struct = isScalar(t.name) ? undefined : t.name;
  const def = d.get('default')?.[0];
  const sql = d.get('sql')?.[0]?.exp;
  return {
    name: f.name.value,
    column: String(d.get('field_source')?.[0]?.field ?? f.name.value),
    type: struct ? 'JSON' : (t.name as ScalarName),
    ...(struct ? { struct } : {}),
    list: t.list,
    nonNull: t.nonNull,
    pk: d.has('pk'),
    ...(typeof sql === 'string' ? { sql } : {}),
    ...(def ? { default: { value: def.value, sequence: def.sequence as string | undefined, insertExp: def.insert_exp as string | undefined, updateExp: def.update_exp as string | undefined } } : {}),
    excludeFilter: (d.get('exclude_filter')?.[0]?.operations as string[] | undefined) ?? [],
    filterRequired: d.has('filter_required'),
    ...(f.description ? { description: f.description.value } : {}),
    ...(typeof d.get('dim')?.[0]?.len === 'number' ? { dim: d.get('dim')![0]!.len as number } : {}),
    ...(d.has('measurement') ? { measurement: true } : {}),
    ...(d.has('timescale_key') ? { timescaleKey: true } : {}),
    loc,
  };
}

interface PendingRef {
  owner: string;
  args: Args;
  sourceFields: string[];
  referencesFields: string[];
  loc: string;
}

interface Draft {
  obj: Omit<DataObject, 'relations' | 'calls' | 'fields'> & { relations: Relation[]; calls: FunctionCallField[]; fields: ColumnField[] };
  refs: PendingRef[];
  joins: PendingJoin[];
}

/** A field carrying `@join`: a declared relation, not a column. */
export function pendingJoin(f: FieldDefinitionNode, file: string): PendingJoin | undefined {
  const d = directives(f.directives).get('join')?.[0];
  if (!d) return undefined;
  const t = unwrap(f.type);
  return { name: f.name.value, args: d, list: t.list, type: t.name, ...(f.description ? { description: f.description.value } : {}), loc: locOf(f, file) };
}

function compileObject(ctx: Ctx, file: string, node: ObjectTypeDefinitionNode): Draft | undefined {
  checkDirectives(ctx, file, node.directives, 'type');
  for (const f of node.fields ?? []) {
    checkDirectives(ctx, file, f.directives, 'field');
    for (const a of f.arguments ?? []) checkDirectives(ctx, file, a.directives, 'argument');
  }
  const d = directives(node.directives);
  const table = d.get('table')?.[0];
  const view = d.get('view')?.[0];
  const loc = locOf(node, file);
  if (!table && !view) {
    for (const special of ['cube', 'hypertable']) if (d.has(special)) ctx.problems.push(`@${special} on "${node.name.value}" needs @table or @view ${where(loc)}`);
    return undefined;
  }
  const local = node.name.value;
  const fields: ColumnField[] = [];
  const calls: FunctionCallField[] = [];
  const refs: PendingRef[] = [];
  const joins: PendingJoin[] = [];
  for (const f of node.fields ?? []) {
    const join = pendingJoin(f, file);
    if (join) {
      joins.push(join);
      continue;
    }
    const call = directives(f.directives).get('function_call')?.[0];
    const joinCall = directives(f.directives).get('table_function_call_join')?.[0];
    if (call || joinCall) {
      const t = unwrap(f.type);
      const d0 = (call ?? joinCall)!;
      const join = joinCall ? { sourceFields: (joinCall.source_fields as string[]) ?? [], referencesFields: (joinCall.references_fields as string[]) ?? [] } : undefined;
      calls.push({
        name: f.name.value, function: String(d0.references_name ?? ''), args: (d0.args as Record<string, string> | undefined) ?? {},
        type: t.name, list: t.list || !!join, ...(join ? { join } : {}), ...(f.description ? { description: f.description.value } : {}), loc: locOf(f, file),
      });
      continue;
    }
    const field = compileField(ctx, file, f);
    if (!field) continue;
    fields.push(field);
    for (const r of directives(f.directives).get('field_references') ?? []) {
      refs.push({ owner: local, args: r, sourceFields: [field.name], referencesFields: [String(r.field ?? '')], loc: where(locOf(f, file)) });
    }
  }
  for (const f of fields) {
    if (!f.measurement) continue;
    if (!d.has('cube')) ctx.warnings.push(`@measurement on "${local}.${f.name}" has no effect: "${local}" is not a @cube ${where(f.loc)}`);
    else if (f.list || f.struct || !MEASUREMENT_FUNCS[f.type]) ctx.warnings.push(`@measurement on "${local}.${f.name}" has no effect: only ${Object.keys(MEASUREMENT_FUNCS).join(', ')} fields are measured ${where(f.loc)}`);
  }
  for (const r of d.get('references') ?? []) {
    refs.push({ owner: local, args: r, sourceFields: (r.source_fields as string[]) ?? [], referencesFields: (r.references_fields as string[]) ?? [], loc: where(loc) });
  }
  const uniques: UniqueKey[] = (d.get('unique') ?? []).map((u) => {
    const fs = (u.fields as string[]) ?? [];
    return { fields: fs, suffix: String(u.query_suffix ?? `by_${fs.join('_')}`), skipQuery: Boolean(u.skip_query) };
  });
  for (const u of uniques) for (const f of u.fields) {
    if (!fields.some((x) => x.name === f)) ctx.problems.push(`unknown field "${f}" in @unique of "${local}" ${where(loc)}`);
  }
  const argsDir = d.get('args')?.[0];
  const soft = table?.soft_delete ? { cond: table.soft_delete_cond as string | undefined, set: table.soft_delete_set as string | undefined } : undefined;
  const obj: Draft['obj'] = {
    name: typeName(ctx, local),
    localName: local,
    source: ctx.source.name,
    kind: table ? 'table' : 'view',
    table: String((table ?? view)?.name ?? local),
    ...(typeof view?.sql === 'string' ? { sql: view.sql } : {}),
    pk: fields.filter((f) => f.pk).map((f) => f.name),
    uniques,
    fields,
    relations: [],
    calls,
    module: String(d.get('module')?.[0]?.name ?? ''),
    isM2m: Boolean(table?.is_m2m),
    ...(soft ? { softDelete: soft } : {}),
    ...(argsDir ? { args: { input: typeName(ctx, String(argsDir.name)), required: Boolean(argsDir.required) } } : {}),
    readOnly: ctx.source.readOnly || !table,
    ...(d.has('cube') ? { cube: true } : {}),
    ...(d.has('hypertable') ? { hypertable: true } : {}),
    ...(d.get('cache') ? { cache: { ...(d.get('cache')![0] as object) } as DataObject['cache'] } : {}),
    ...(node.description ? { description: node.description.value } : {}),
    loc,
  };
  return { obj, refs, joins };
}

function column(obj: Draft['obj'], field: string): string | undefined {
  return obj.fields.find((f) => f.name === field)?.column;
}

/** Resolves @references / @field_references into relation fields on both ends, and M2M through junctions. */
function resolveRelations(ctx: Ctx, drafts: Map<string, Draft>): void {
  for (const draft of drafts.values()) {
    const owner = draft.obj;
    const resolved: { ref: PendingRef; target: Draft['obj']; src: string[]; dst: string[] }[] = [];
    for (const ref of draft.refs) {
      const targetLocal = String(ref.args.references_name ?? '');
      const target = drafts.get(targetLocal)?.obj;
      if (!target) {
        ctx.problems.push(`unknown type "${targetLocal}" in references of "${owner.localName}" ${ref.loc}`);
        continue;
      }
      const src = ref.sourceFields.map((f) => column(owner, f) ?? (ctx.problems.push(`unknown field "${f}" of "${owner.localName}" in references ${ref.loc}`), f));
      const dst = ref.referencesFields.map((f) => column(target, f) ?? (ctx.problems.push(`unknown field "${f}" of "${target.localName}" in references of "${owner.localName}" ${ref.loc}`), f));
      if (src.length !== dst.length || src.length === 0) {
        ctx.problems.push(`references of "${owner.localName}" to "${targetLocal}" must pair the same number of fields ${ref.loc}`);
        continue;
      }
      resolved.push({ ref, target, src, dst });
    }
    for (const { ref, target, src, dst } of resolved) {
      owner.relations.push({
        name: String(ref.args.query ?? target.localName),
        kind: 'one',
        target: target.name,
        sourceFields: src,
        targetFields: dst,
        ...(ref.args.description ? { description: String(ref.args.description) } : {}),
      });
      if (!owner.isM2m) {
        target.relations.push({
          name: String(ref.args.references_query ?? owner.localName),
          kind: 'many',
          target: owner.name,
          sourceFields: dst,
          targetFields: src,
          ...(ref.args.references_description ? { description: String(ref.args.references_description) } : {}),
        });
      }
    }
    // A junction with two references links its two ends both ways (SPEC §3.3 @field_references).
    if (owner.isM2m && resolved.length === 2) {
      const [a, b] = resolved as [(typeof resolved)[0], (typeof resolved)[0]];
      for (const [from, to] of [[a, b], [b, a]] as const) {
        from.target.relations.push({
          name: String(from.ref.args.references_query ?? to.target.localName),
          kind: 'm2m',
          target: to.target.name,
          sourceFields: from.dst,
          targetFields: to.dst,
          via: { object: owner.name, ownerFields: from.src, targetFields: to.src },
        });
      }
    } else if (owner.isM2m) {
      ctx.problems.push(`m2m table "${owner.localName}" must have exactly two references, found ${resolved.length} ${where(owner.loc)}`);
    }
  }
  for (const draft of drafts.values()) {
    for (const j of draft.joins) {
      const targetLocal = String(j.args.references_name ?? '');
      const target = drafts.get(targetLocal)?.obj;
      if (!target) {
        ctx.problems.push(`unknown type "${targetLocal}" in @join of "${draft.obj.localName}.${j.name}" ${where(j.loc)}`);
        continue;
      }
      if (j.type !== targetLocal) ctx.problems.push(`field "${draft.obj.localName}.${j.name}" must have the type "${targetLocal}" its @join names ${where(j.loc)}`);
      const rel = joinRelation(j, { label: draft.obj.localName, fields: draft.obj.fields }, { label: target.localName, name: target.name, fields: target.fields }, ctx.problems);
      if (rel) draft.obj.relations.push(rel);
    }
  }
  for (const draft of drafts.values()) {
    const seen = new Set(draft.obj.fields.map((f) => f.name));
    for (const r of draft.obj.relations) {
      if (seen.has(r.name)) ctx.problems.push(`field "${r.name}" of "${draft.obj.localName}" is defined twice (a relation has the name of a field) ${where(draft.obj.loc)}`);
      seen.add(r.name);
    }
  }
}

/**
 * hugr's catalogs declare a database function returning a record set as a list of a structured type
 * with no `sql` and no `is_table` (`table_function(a: String!): [result] @function(name: "f")`): it is
 * called as a table function. Without this, each row of the set was read as one value (issue 32).
 */
function impliedTable(ctx: Ctx, ret: { name: string; list: boolean }, d: Args): boolean {
  return ret.list && !isScalar(ret.name) && d.sql === undefined && !d.json_cast && (ctx.traits ?? SQL_TRAITS).tableFunctions;
}

function compileFunction(ctx: Ctx, file: string, f: FieldDefinitionNode, mutation: boolean): CatalogFunction | undefined {
  const d = directives(f.directives).get('function')?.[0];
  const loc = locOf(f, file);
  if (!d) {
    ctx.problems.push(`function "${f.name.value}" has no @function directive ${where(loc)}`);
    return undefined;
  }
  const ret = unwrap(f.type);
  return {
    name: f.name.value,
    source: ctx.source.name,
    mutation,
    module: String(directives(f.directives).get('module')?.[0]?.name ?? ''),
    dbName: String(d.name ?? f.name.value),
    ...(typeof d.sql === 'string' ? { sql: d.sql } : {}),
    args: (f.arguments ?? []).map((a) => {
      const t = unwrap(a.type);
      const injected = directives(a.directives).get('arg_default')?.[0]?.value;
      return {
        name: a.name.value, type: t.name, list: t.list, nonNull: t.nonNull,
        ...(injected !== undefined ? { injected: String(injected) } : {}), ...(a.defaultValue ? { defaultValue: print(a.defaultValue) } : {}),
      };
    }),
    returns: { type: ret.name, list: ret.list, nonNull: ret.nonNull },
    isTable: d.is_table !== undefined ? Boolean(d.is_table) : impliedTable(ctx, ret, d),
    jsonCast: Boolean(d.json_cast),
    skipNullArg: Boolean(d.skip_null_arg),
    ...(directives(f.directives).get('cache') ? { cache: { ...(directives(f.directives).get('cache')![0] as object) } as CatalogFunction['cache'] } : {}),
    ...(f.description ? { description: f.description.value } : {}),
    loc,
  };
}

function compileStructs(ctx: Ctx, nodes: readonly ObjectTypeDefinitionNode[], drafts: Map<string, Draft>): StructType[] {
  const local = new Set(nodes.map((n) => n.name.value));
  return nodes.map((n) => ({
    name: typeName(ctx, n.name.value),
    fields: (n.fields ?? []).map((f) => {
      const t = unwrap(f.type);
      const known = isScalar(t.name) || local.has(t.name) || drafts.has(t.name);
      if (!known) ctx.problems.push(`unknown type "${t.name}" of field "${n.name.value}.${f.name.value}" ${where(locOf(f, n.loc?.source.name ?? '?'))}`);
      const source = directives(f.directives).get('field_source')?.[0]?.field;
      return { name: f.name.value, type: isScalar(t.name) ? t.name : typeName(ctx, t.name), list: t.list, nonNull: t.nonNull, ...(typeof source === 'string' && source !== f.name.value ? { source } : {}) };
    }),
    ...(n.description ? { description: n.description.value } : {}),
  }));
}

/** Function argument and result types must be scalars, catalog structs or data objects. */
function checkFunctionTypes(ctx: Ctx, functions: CatalogFunction[], drafts: Map<string, Draft>, structs: StructType[]): void {
  const known = (t: string) => isScalar(t) || drafts.has(t) || structs.some((s) => s.name === typeName(ctx, t));
  for (const [i, fn] of functions.entries()) {
    for (const a of fn.args) if (!isScalar(a.type)) ctx.problems.push(`argument "${a.name}" of function "${fn.name}" must be a scalar, not "${a.type}" ${where(fn.loc)}`);
    if (!known(fn.returns.type)) ctx.problems.push(`unknown type "${fn.returns.type}" of function "${fn.name}" ${where(fn.loc)}`);
    else if (!isScalar(fn.returns.type)) functions[i] = { ...fn, returns: { ...fn.returns, type: drafts.get(fn.returns.type)?.obj.name ?? typeName(ctx, fn.returns.type) } };
  }
}

/** Struct-typed columns must name a structure type of the catalog; they keep its prefixed name. */
function resolveStructColumns(ctx: Ctx, drafts: Map<string, Draft>, structs: StructType[]): void {
  for (const d of drafts.values()) {
    d.obj.fields = d.obj.fields.map((f) => {
      if (!f.struct) return f;
      const name = typeName(ctx, f.struct);
      if (!structs.some((s) => s.name === name)) {
        ctx.problems.push(`unknown type "${f.struct}" of field "${f.name}" ${where(f.loc)}`);
        return f;
      }
      return { ...f, struct: name };
    });
  }
}

/** `@function_call` fields name a function of this catalog, map existing fields, and get its type. */
function checkCalls(ctx: Ctx, drafts: Map<string, Draft>, functions: CatalogFunction[], structs: StructType[]): void {
  for (const d of drafts.values()) {
    d.obj.calls = d.obj.calls.map((c) => {
      const fn = functions.find((f) => f.name === c.function && !f.mutation);
      if (!fn) {
        // A function of another source (an http endpoint, say) is called from an extension source.
        ctx.problems.push(`unknown function "${c.function}" in @function_call of "${d.obj.localName}.${c.name}" ${where(c.loc)}: a function of another source is called from an extension source (docs/multi-source.md)`);
        return c;
      }
      if (c.join) {
        if (!fn.isTable) ctx.problems.push(`function "${fn.name}" of @table_function_call_join on "${d.obj.localName}.${c.name}" must be is_table ${where(c.loc)}`);
        if (c.join.sourceFields.length !== c.join.referencesFields.length) ctx.problems.push(`@table_function_call_join of "${d.obj.localName}.${c.name}" must pair source_fields and references_fields ${where(c.loc)}`);
        for (const f of c.join.sourceFields) if (!d.obj.fields.some((x) => x.name === f)) ctx.problems.push(`unknown field "${f}" of "${d.obj.localName}" in @table_function_call_join ${where(c.loc)}`);
      }
      for (const [arg, field] of Object.entries(c.args)) {
        if (!fn.args.some((a) => a.name === arg)) ctx.problems.push(`function "${fn.name}" has no argument "${arg}" (@function_call of "${d.obj.localName}.${c.name}") ${where(c.loc)}`);
        if (d.obj.fields.some((f) => f.name === field)) continue;
        const chained = d.obj.calls.find((o) => o.name === field);
        if (!chained) ctx.problems.push(`unknown field "${field}" of "${d.obj.localName}" in @function_call ${where(c.loc)}`);
        else if (chained.join || chained.list || chained.source !== undefined || c.source !== undefined || !isScalar(chained.type) || functions.find((f) => f.name === chained.function)?.isTable) {
          ctx.problems.push(`@function_call of "${d.obj.localName}.${c.name}" maps "${arg}" to "${field}": a chained call must be a scalar @function_call of the same source ${where(c.loc)}`);
        } else if (callsItself(d.obj.calls, c.name, field)) ctx.problems.push(`@function_call of "${d.obj.localName}.${c.name}" calls itself through "${field}" ${where(c.loc)}`);
      }
      const known = isScalar(c.type) || structs.some((s) => s.name === typeName(ctx, c.type)) || drafts.has(c.type);
      if (!known) ctx.problems.push(`unknown type "${c.type}" of field "${d.obj.localName}.${c.name}" ${where(c.loc)}`);
      return isScalar(c.type) ? c : { ...c, type: drafts.get(c.type)?.obj.name ?? typeName(ctx, c.type) };
    });
  }
}

/** True when the call field `field` leads back to `start` through chained arguments. */
function callsItself(calls: DataObject['calls'], start: string, field: string, seen = new Set<string>()): boolean {
  if (field === start) return true;
  if (seen.has(field)) return false;
  seen.add(field);
  const call = calls.find((c) => c.name === field);
  return Object.values(call?.args ?? {}).some((next) => callsItself(calls, start, next, seen));
}

/**
 * hugr's pages add fields to a catalog's own types with `extend type X { ... }` beside `type X`
 * (joins, function-call fields). Each such extension is folded into its definition, fields and
 * directives appended; the map sends a definition to its merged node and marks each extension
 * consumed. An `extend type` of a type the catalog does not define stays unsupported here (another
 * source's objects are extended from an extension source).
 */
function withOwnExtensions(docs: readonly DocumentNode[]): Map<DefinitionNode, DefinitionNode> {
  const defs = new Map<string, ObjectTypeDefinitionNode>();
  for (const doc of docs) for (const d of doc.definitions) if (d.kind === Kind.OBJECT_TYPE_DEFINITION && !defs.has(d.name.value)) defs.set(d.name.value, d);
  const merged = new Map<DefinitionNode, DefinitionNode>();
  for (const doc of docs) {
    for (const ext of doc.definitions) {
      if (ext.kind !== Kind.OBJECT_TYPE_EXTENSION || FUNCTION_ROOTS.has(ext.name.value)) continue;
      const def = defs.get(ext.name.value);
      if (!def) continue;
      const cur = (merged.get(def) ?? def) as ObjectTypeDefinitionNode;
      merged.set(def, { ...cur, fields: withFields(cur.fields ?? [], ext.fields ?? []), directives: [...(cur.directives ?? []), ...(ext.directives ?? [])] });
      merged.set(ext, ext);
    }
  }
  return merged;
}

/**
 * The fields of a type with an extension's fields added. A field the type has already is declared
 * again, with the extension's type and its directives added to the field's own: hugr's examples give
 * a self-defined table's column a relation this way (`extend type general_payments {
 * Covered_Recipient_NPI: BigInt @field_references(...) }`), which was a duplicate field.
 */
function withFields(own: readonly FieldDefinitionNode[], added: readonly FieldDefinitionNode[]): FieldDefinitionNode[] {
  const out = [...own];
  for (const f of added) {
    const i = out.findIndex((o) => o.name.value === f.name.value);
    if (i < 0) {
      out.push(f);
      continue;
    }
    const prev = out[i]!;
    const again = new Set((f.directives ?? []).map((d) => d.name.value));
    const repeatable = new Set(['field_references', 'references']);
    const kept = (prev.directives ?? []).filter((d) => repeatable.has(d.name.value) || !again.has(d.name.value));
    out[i] = { ...f, description: f.description ?? prev.description, arguments: f.arguments?.length ? f.arguments : prev.arguments, directives: [...kept, ...(f.directives ?? [])] };
  }
  return out;
}

/** Compiles the SDL files of one data source. Throws CatalogError listing every problem found. */
export function compileCatalog(source: SourceInfo, files: readonly CatalogFile[], traits: CatalogTraits = SQL_TRAITS): ResolvedCatalog {
  const ctx: Ctx = { source, traits, problems: [], warnings: [] };
  const docs = parseFiles(ctx, files);
  const drafts = new Map<string, Draft>();
  const inputs: InputType[] = [];
  const functions: CatalogFunction[] = [];
  const structNodes: ObjectTypeDefinitionNode[] = [];
  const extended = withOwnExtensions(docs);
  for (const doc of docs) {
    const file = doc.loc?.source.name ?? '?';
    for (const original of doc.definitions) {
      const def = original.kind === Kind.OBJECT_TYPE_DEFINITION ? extended.get(original) ?? original : original;
      if (def.kind === Kind.OBJECT_TYPE_EXTENSION && !FUNCTION_ROOTS.has(def.name.value) && extended.has(def)) continue;
      if (def.kind === Kind.OBJECT_TYPE_DEFINITION) {
        if (drafts.has(def.name.value)) {
          ctx.problems.push(`type "${def.name.value}" is defined twice ${where(locOf(def, file))}`);
          continue;
        }
        const draft = compileObject(ctx, file, def);
        if (draft) drafts.set(def.name.value, draft);
        else structNodes.push(def);
      } else if (def.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION) {
        inputs.push({
          name: typeName(ctx, def.name.value),
          fields: (def.fields ?? []).map((f) => {
            const t = unwrap(f.type);
            const named = directives(f.directives).get('named')?.[0]?.name;
            return { name: f.name.value, type: t.name, list: t.list, nonNull: t.nonNull, ...(typeof named === 'string' ? { named } : {}) };
          }),
        });
      } else if (def.kind === Kind.OBJECT_TYPE_EXTENSION && FUNCTION_ROOTS.has(def.name.value)) {
        for (const f of def.fields ?? []) {
          checkDirectives(ctx, file, f.directives, 'field');
          for (const a of f.arguments ?? []) checkDirectives(ctx, file, a.directives, 'argument');
          const fn = compileFunction(ctx, file, f, def.name.value === 'MutationFunction');
          if (fn) functions.push(fn);
        }
      } else if (def.kind === Kind.OBJECT_TYPE_EXTENSION) {
        ctx.problems.push(`extend type ${def.name.value}: no type "${def.name.value}" in this catalog (another source's objects are extended by an extension source) ${where(locOf(def, file))}`);
      } else {
        ctx.problems.push(`unsupported definition "${def.kind}" ${where(locOf(def, file))}`);
      }
    }
  }
  resolveRelations(ctx, drafts);
  const structs = compileStructs(ctx, structNodes, drafts);
  checkFunctionTypes(ctx, functions, drafts, structs);
  checkCalls(ctx, drafts, functions, structs);
  resolveStructColumns(ctx, drafts, structs);
  for (const d of drafts.values()) {
    if (!d.obj.args) continue;
    const input = inputs.find((i) => i.name === d.obj.args?.input);
    if (!input) ctx.problems.push(`unknown input type "${d.obj.args.input}" in @args of "${d.obj.localName}" ${where(d.obj.loc)}`);
    // `args` is required when the input has non-null members, whatever @args(required:) says (SPEC §3.3).
    else if (input.fields.some((f) => f.nonNull)) (d.obj as { args: DataObject['args'] }).args = { ...d.obj.args, required: true };
    // A view with arguments and no sql names a database table function (hugr's views page): its rows are
    // the function called with the input's fields in order, those with `@named(name:)` by that parameter
    // name after the others (`name := value`, which DuckDB and PostgreSQL both read).
    if (input && d.obj.kind === 'view' && d.obj.sql === undefined) {
      const args = [...input.fields.filter((f) => !f.named).map((f) => `[$${f.name}]`), ...input.fields.filter((f) => f.named).map((f) => `${f.named} := [$${f.name}]`)];
      const call = `${d.obj.table.includes('.') ? d.obj.table : `[$catalog].${d.obj.table}`}(${args.join(', ')})`;
      (d.obj as { sql?: string }).sql = `SELECT * FROM ${call}`;
    }
  }
  if (ctx.problems.length) throw new CatalogError(ctx.problems);
  const objects = [...drafts.values()].map((d) => d.obj).sort((a, b) => a.name.localeCompare(b.name));
  return deepFreeze({ source, objects, inputs, structs, functions, warnings: ctx.warnings });
}
