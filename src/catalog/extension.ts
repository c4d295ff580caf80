// Extension sources (SPEC §3.1 `type: extension`, §3.3 @dependency and the merge directives): SDL
// of `extend type` definitions that add fields and relations to other sources' objects, relations
// across sources included. An extension is compiled against the served catalogs whenever the
// schema is built, and is served only while every source it depends on is loaded.
import { type DocumentNode, Kind, type FieldDefinitionNode, type ObjectTypeExtensionNode } from 'graphql';
import { checkDirectives, compileField, type Ctx, directives, extensionDescription, parseFiles, pendingJoin, type Args, type CatalogFile, unwrap } from './compile.js';
import { CatalogError, locOf, where } from './errors.js';
import { joinRelation } from './joins.js';
import { type CatalogFunction, type ColumnField, type DataObject, deepFreeze, type FunctionCallField, type Relation, type ResolvedCatalog, type SourceInfo } from './model.js';

type Mutable = Omit<DataObject, 'fields' | 'relations' | 'calls' | 'pk'> & { fields: ColumnField[]; relations: Relation[]; calls: FunctionCallField[]; pk: string[] };

/** Directives `@drop_directive(name:)` can take off an existing field, and how. */
const DROPPABLE: Readonly<Record<string, (f: ColumnField) => ColumnField>> = {
  filter_required: (f) => ({ ...f, filterRequired: false }),
  exclude_filter: (f) => ({ ...f, excludeFilter: [] }),
  default: ({ default: _d, ...f }) => f,
  pk: (f) => ({ ...f, pk: false }),
  sql: ({ sql: _s, ...f }) => f,
};

const asList = (v: unknown): string[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

interface Work {
  readonly ctx: Ctx;
  /** Functions of every served source (`@function_call` may name any of them). */
  readonly functions: readonly CatalogFunction[];
  /** Every served object, by GraphQL type name; changed copies replace the originals. */
  readonly objects: Map<string, Mutable>;
  /** Sources whose objects the extension touches. */
  readonly touched: Set<string>;
  readonly dependencies: Set<string>;
}

function mutable(o: DataObject): Mutable {
  return { ...o, fields: [...o.fields], relations: [...o.relations], calls: [...o.calls], pk: [...o.pk] };
}

function has(o: Mutable, name: string): boolean {
  return o.fields.some((f) => f.name === name) || o.relations.some((r) => r.name === name) || o.calls.some((c) => c.name === name);
}

function remove(o: Mutable, name: string): void {
  o.fields = o.fields.filter((f) => f.name !== name);
  o.relations = o.relations.filter((r) => r.name !== name);
  o.calls = o.calls.filter((c) => c.name !== name);
  o.pk = o.pk.filter((p) => p !== name);
}

function objectFor(w: Work, name: string, at: string): Mutable | undefined {
  const o = w.objects.get(name);
  if (!o) {
    w.ctx.problems.push(`unknown type "${name}" ${at}: an extension names data objects of loaded sources by their type name`);
    return undefined;
  }
  w.touched.add(o.source);
  return o;
}

/** `@references` on `extend type`: the N:1 field on the owner and the list field on the target. */
function references(w: Work, owner: Mutable, r: Args, at: string, srcFields = asList(r.source_fields), dstFields = asList(r.references_fields)): void {
  const target = objectFor(w, String(r.references_name ?? ''), at);
  if (!target) return;
  const col = (o: Mutable, f: string) => o.fields.find((x) => x.name === f)?.column ?? (w.ctx.problems.push(`unknown field "${f}" of "${o.name}" in references ${at}`), f);
  const src = srcFields.map((f) => col(owner, f));
  const dst = dstFields.map((f) => col(target, f));
  if (!src.length || src.length !== dst.length) {
    w.ctx.problems.push(`references of "${owner.name}" to "${target.name}" must pair the same number of fields ${at}`);
    return;
  }
  owner.relations.push({ name: String(r.query ?? target.localName), kind: 'one', target: target.name, sourceFields: src, targetFields: dst, ...(r.description ? { description: String(r.description) } : {}) });
  target.relations.push({
    name: String(r.references_query ?? owner.localName), kind: 'many', target: owner.name, sourceFields: dst, targetFields: src,
    ...(r.references_description ? { description: String(r.references_description) } : {}),
  });
}

/** One field of an `extend type`, with the merge directives of SPEC §3.3. */
function extendField(w: Work, obj: Mutable, f: FieldDefinitionNode, file: string): void {
  const d = directives(f.directives);
  const name = f.name.value;
  const at = where(locOf(f, file));
  if (d.has('drop')) {
    if (has(obj, name)) remove(obj, name);
    else if (!d.has('if_not_exists')) w.ctx.problems.push(`@drop of "${obj.name}.${name}": there is no such field ${at}`);
    return;
  }
  for (const dd of d.get('drop_directive') ?? []) {
    const which = String(dd.name ?? '');
    const field = obj.fields.find((x) => x.name === name);
    const drop = DROPPABLE[which];
    if (!field) w.ctx.problems.push(`@drop_directive on "${obj.name}.${name}": there is no such column ${at}`);
    else if (!drop) w.ctx.problems.push(`@drop_directive(name: "${which}") on "${obj.name}.${name}": only ${Object.keys(DROPPABLE).join(', ')} can be dropped ${at}`);
    else {
      obj.fields = obj.fields.map((x) => (x.name === name ? drop(x) : x));
      if (which === 'pk') obj.pk = obj.pk.filter((p) => p !== name);
    }
  }
  if (d.has('drop_directive')) return;
  const existingColumn = obj.fields.find((x) => x.name === name);
  const refs = d.get('field_references') ?? [];
  // @field_references on a column the object already has adds relations to it, nothing more.
  if (existingColumn && refs.length && !d.has('replace')) {
    for (const r of refs) references(w, obj, r, at, [name], [String(r.field ?? '')]);
    return;
  }
  if (has(obj, name)) {
    if (d.has('if_not_exists')) return;
    if (!d.has('replace')) {
      w.ctx.problems.push(`field "${obj.name}.${name}" already exists: use @replace to change it or @if_not_exists to keep it ${at}`);
      return;
    }
    remove(obj, name);
  }
  const join = pendingJoin(f, file);
  if (join) {
    const target = objectFor(w, String(join.args.references_name ?? ''), at);
    if (!target) return;
    if (join.type !== target.name) w.ctx.problems.push(`field "${obj.name}.${name}" must have the type "${target.name}" its @join names ${at}`);
    const rel = joinRelation(join, { label: obj.name, fields: obj.fields }, { label: target.name, name: target.name, fields: target.fields }, w.ctx.problems);
    if (rel) obj.relations.push(rel);
    return;
  }
  const call = d.get('function_call')?.[0] ?? d.get('table_function_call_join')?.[0];
  if (call) {
    functionCall(w, obj, f, call, d.has('table_function_call_join'), file);
    return;
  }
  const column = compileField(w.ctx, file, f);
  if (!column || column.struct) {
    w.ctx.problems.push(`field "${obj.name}.${name}" of an extension must be a scalar column, a computed (@sql) field or a @join ${at}`);
    return;
  }
  obj.fields.push(column);
  if (column.pk) obj.pk.push(column.name);
  for (const r of refs) references(w, obj, r, at, [name], [String(r.field ?? '')]);
}

/**
 * `@function_call` / `@table_function_call_join` to a function of any loaded source (`module`
 * names its source or module when several have the name); arguments map stored columns.
 */
function functionCall(w: Work, obj: Mutable, f: FieldDefinitionNode, call: Args, join: boolean, file: string): void {
  const at = where(locOf(f, file));
  const name = String(call.references_name ?? '');
  const module = typeof call.module === 'string' ? call.module : undefined;
  const found = w.functions.filter((fn) => !fn.mutation && fn.name === name && (!module || fn.module === module || fn.source === module));
  if (found.length !== 1) {
    w.ctx.problems.push(found.length ? `function "${name}" of @function_call on "${obj.name}.${f.name.value}" is in several sources (${found.map((x) => x.source).join(', ')}): name one with module ${at}` : `unknown function "${name}" in @function_call of "${obj.name}.${f.name.value}" ${at}`);
    return;
  }
  const fn = found[0]!;
  w.touched.add(fn.source);
  const args = (call.args as Record<string, string> | undefined) ?? {};
  const stored = (field: string) => {
    const c = obj.fields.find((x) => x.name === field);
    if (!c || c.sql !== undefined) w.ctx.problems.push(`"${field}" is not a stored column of "${obj.name}" (@function_call of "${f.name.value}") ${at}`);
  };
  for (const [arg, field] of Object.entries(args)) {
    if (!fn.args.some((a) => a.name === arg)) w.ctx.problems.push(`function "${fn.name}" has no argument "${arg}" (@function_call of "${obj.name}.${f.name.value}") ${at}`);
    stored(field);
  }
  const t = unwrap(f.type);
  const pairs = join ? { sourceFields: asList(call.source_fields), referencesFields: asList(call.references_fields) } : undefined;
  if (pairs) {
    if (!fn.isTable) w.ctx.problems.push(`function "${fn.name}" of @table_function_call_join on "${obj.name}.${f.name.value}" must be is_table ${at}`);
    if (pairs.sourceFields.length !== pairs.referencesFields.length) w.ctx.problems.push(`@table_function_call_join of "${obj.name}.${f.name.value}" must pair source_fields and references_fields ${at}`);
    pairs.sourceFields.forEach(stored);
  }
  obj.calls.push({
    name: f.name.value, function: fn.name, ...(fn.source !== obj.source ? { source: fn.source } : {}), args, type: t.name, list: t.list || !!pairs,
    ...(pairs ? { join: pairs } : {}), ...(f.description ? { description: f.description.value } : {}), loc: locOf(f, file),
  });
}

function extendType(w: Work, def: ObjectTypeExtensionNode, file: string, doc?: DocumentNode): void {
  checkDirectives(w.ctx, file, def.directives, 'type');
  for (const f of def.fields ?? []) checkDirectives(w.ctx, file, f.directives, 'field');
  const at = where(locOf(def, file));
  const td = directives(def.directives);
  for (const dep of td.get('dependency') ?? []) w.dependencies.add(String(dep.name ?? ''));
  const obj = objectFor(w, def.name.value, at);
  if (!obj) return;
  const described = doc ? extensionDescription(doc, def.name.value) : undefined;
  if (described !== undefined) (obj as { description?: string }).description = described;
  for (const r of td.get('references') ?? []) references(w, obj, r, at);
  for (const f of def.fields ?? []) extendField(w, obj, f, file);
}

/** Applies one extension's SDL to `objects` (changed in place). Throws CatalogError listing every problem. */
function applyOne(source: SourceInfo, files: readonly CatalogFile[], objects: Map<string, Mutable>, functions: readonly CatalogFunction[]): { touched: Set<string>; dependencies: Set<string> } {
  const w: Work = { ctx: { source, problems: [], warnings: [] }, objects, functions, touched: new Set(), dependencies: new Set() };
  for (const doc of parseFiles(w.ctx, files)) {
    const file = doc.loc?.source.name ?? '?';
    for (const def of doc.definitions) {
      if (def.kind === Kind.OBJECT_TYPE_EXTENSION) extendType(w, def, file, doc);
      else if (def.kind === Kind.OBJECT_TYPE_DEFINITION && directives(def.directives).has('dependency')) {
        // `type X @dependency(name:)` with no fields of its own only declares the dependency.
        for (const dep of directives(def.directives).get('dependency') ?? []) w.dependencies.add(String(dep.name ?? ''));
      } else w.ctx.problems.push(`an extension source holds \`extend type\` definitions only, not "${def.kind}" ${where(locOf(def, file))}`);
    }
  }
  if (w.ctx.problems.length) throw new CatalogError(w.ctx.problems);
  return { touched: w.touched, dependencies: w.dependencies };
}

/** The sources an extension names by `@dependency` (on `extend type` or a field-less `type`). */
function declaredDependencies(files: readonly CatalogFile[]): Set<string> {
  const ctx: Ctx = { source: { name: '', type: 'extension', prefix: '', asModule: false, readOnly: false }, problems: [], warnings: [] };
  const out = new Set<string>();
  for (const doc of parseFiles(ctx, files)) {
    for (const def of doc.definitions) {
      if (def.kind !== Kind.OBJECT_TYPE_EXTENSION && def.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
      for (const dep of directives(def.directives).get('dependency') ?? []) out.add(String(dep.name ?? ''));
    }
  }
  return out;
}

const workingSet = (catalogs: readonly ResolvedCatalog[]) => new Map(catalogs.flatMap((c) => c.objects.map((o) => [o.name, mutable(o)] as const)));

/**
 * Compiles an extension source at load (SPEC §3.1): every source it depends on must be loaded and
 * every definition must apply, or the load is refused with the reasons.
 */
export function compileExtension(source: SourceInfo, files: readonly CatalogFile[], served: readonly ResolvedCatalog[], opts: { suspend?: boolean } = {}): ResolvedCatalog {
  const loaded = new Set(served.map((c) => c.source.name));
  const declared = declaredDependencies(files);
  const waiting = [...declared].filter((d) => !loaded.has(d));
  // At start a dependency may have been refused: the extension waits for it (applyExtensions
  // applies it once every dependency is loaded) instead of failing with it (issue 32). Otherwise
  // the missing dependency is the reason given, not the unknown names it would have brought.
  if (waiting.length && opts.suspend) {
    return deepFreeze({ source, extension: { files: files.map((f) => ({ file: f.file, text: f.text })), dependencies: [...declared].sort() }, objects: [], inputs: [], structs: [], functions: [], warnings: [] });
  }
  if (waiting.length) throw new CatalogError(waiting.map((m) => `extension "${source.name}" depends on data source "${m}", which is not loaded`));
  const { touched, dependencies } = applyOne(source, files, workingSet(served), served.flatMap((c) => c.functions));
  const missing = [...dependencies].filter((d) => !loaded.has(d));
  if (missing.length) throw new CatalogError(missing.map((m) => `extension "${source.name}" depends on data source "${m}", which is not loaded`));
  const all = [...new Set([...dependencies, ...touched])].filter((d) => d !== source.name).sort();
  return deepFreeze({ source, extension: { files: files.map((f) => ({ file: f.file, text: f.text })), dependencies: all }, objects: [], inputs: [], structs: [], functions: [], warnings: [] });
}

export interface AppliedCatalogs {
  readonly catalogs: readonly ResolvedCatalog[];
  /** Extensions not applied now, and why (a dependency unloaded, or its definitions no longer fit). */
  readonly dormant: ReadonlyMap<string, string>;
}

/**
 * The catalogs as served: each loaded extension whose dependencies are all loaded is applied, in
 * name order; the others wait, so unloading a dependency removes their fields and loading it again
 * brings them back, without a restart.
 */
export function applyExtensions(catalogs: readonly ResolvedCatalog[]): AppliedCatalogs {
  const extensions = catalogs.filter((c) => c.extension).sort((a, b) => a.source.name.localeCompare(b.source.name));
  const dormant = new Map<string, string>();
  if (!extensions.length) return { catalogs, dormant };
  const loaded = new Set(catalogs.map((c) => c.source.name));
  let objects = workingSet(catalogs);
  for (const ext of extensions) {
    const missing = ext.extension!.dependencies.filter((d) => !loaded.has(d));
    if (missing.length) {
      dormant.set(ext.source.name, `waiting for ${missing.map((m) => `"${m}"`).join(', ')} to be loaded`);
      continue;
    }
    // Applied on a copy: an extension that no longer fits leaves no part of itself behind.
    const trial = new Map([...objects].map(([k, o]) => [k, { ...o, fields: [...o.fields], relations: [...o.relations], calls: [...o.calls], pk: [...o.pk] }]));
    try {
      applyOne(ext.source, ext.extension!.files, trial, catalogs.flatMap((c) => c.functions));
      objects = trial;
    } catch (e) {
      dormant.set(ext.source.name, e instanceof CatalogError ? e.problems.join('; ') : (e as Error).message);
    }
  }
  const out = catalogs.map((c) => (c.extension || !c.objects.length ? c : deepFreeze({ ...c, objects: c.objects.map((o) => objects.get(o.name) as DataObject) })));
  return { catalogs: out, dormant };
}
