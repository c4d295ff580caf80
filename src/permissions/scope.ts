// The access scope of a served schema (src/permissions/access.ts): which types show which data
// object, what belongs to the system module, which fields are secrets. Built with every schema.
import type { DataObject } from '../catalog/model.js';
import { names } from '../schema/object-sdl.js';
import type { RootKind, SchemaIndex } from '../schema/surface.js';
import type { AccessScope, ObjectOp, SecretKind } from './access.js';

/** What the server itself declares about its system module (src/system/system.module.ts). */
export interface SystemSurface {
  /** Sources whose objects form the system module (`core`). */
  readonly sources: ReadonlySet<string>;
  /** Handler ids of system functions every caller may use. */
  readonly openHandlers: ReadonlySet<string>;
  /** `<source>.<local object name>` -> field -> how the secret is kept. */
  readonly secrets: ReadonlyMap<string, ReadonlyMap<string, SecretKind>>;
}

export const NO_SYSTEM: SystemSurface = { sources: new Set(), openHandlers: new Set(), secrets: new Map() };

const OPS: Record<RootKind, ObjectOp> = {
  list: 'query', by_pk: 'query', unique: 'query', aggregation: 'query', bucket_aggregation: 'query',
  insert: 'insert', insert_batch: 'insert', update: 'update', delete: 'delete',
};

/** Every type name that shows rows, filters, inputs or aggregates of `obj`. */
function ownedTypes(obj: DataObject): string[] {
  const n = names(obj.name);
  return [obj.name, n.filter, n.listFilter, n.mutInput, n.mutData, n.aggregation, n.bucket, n.subAggregation];
}

export function buildAccessScope(index: SchemaIndex, system: SystemSurface): AccessScope {
  const owners = new Map<string, string>();
  const systemObjects = new Set<string>();
  const secrets = new Map<string, ReadonlyMap<string, SecretKind>>();
  for (const obj of index.objects.values()) {
    for (const t of ownedTypes(obj)) owners.set(t, obj.name);
    if (system.sources.has(obj.source)) systemObjects.add(obj.name);
    const s = system.secrets.get(`${obj.source}.${obj.localName}`);
    if (s) secrets.set(obj.name, s);
  }
  const systemFields = new Set<string>();
  const openFields = new Set<string>();
  for (const [coord, handler] of index.functions) (system.openHandlers.has(handler) ? openFields : systemFields).add(coord);
  // Catalog functions of a system source (e.g. core.meta's engine_version) are system functions too.
  for (const [coord, fn] of index.catalogFunctions) if (system.sources.has(fn.source)) systemFields.add(coord);
  const roots = new Map<string, { object: string; op: ObjectOp }>();
  for (const [coord, root] of index.roots) roots.set(coord, { object: root.object, op: OPS[root.kind] });
  const fnCoords = new Map([...index.catalogFunctions].map(([coord, fn]) => [fn, coord] as const));
  const calls = new Map<string, string>();
  for (const obj of index.objects.values()) {
    for (const c of obj.calls) {
      const fn = fnCoords.get(index.functionsByName.get(`${c.source ?? obj.source}.${c.function}`)!);
      if (fn) calls.set(`${obj.name}.${c.name}`, fn);
    }
  }
  return { owners, systemObjects, systemFields, openFields, roots, secrets, calls };
}
