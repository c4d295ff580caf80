// `_join(fields:)` and `_spatial(field:, type:, buffer:)` (SPEC §4): query-time relations from a row
// to any data object, in the same source or another. Each field inside names its target object
// (or its `_aggregation` / `_bucket_aggregation`) and is planned as a list relation made up from
// the arguments, so everything a relation does (filters, nested_*, aggregations, the target's row
// filters, a batched statement across sources) holds here too.
import { type FieldNode, getArgumentValues, getNamedType, type GraphQLField, type GraphQLObjectType, isObjectType } from 'graphql';
import { collectSubfields } from 'graphql/execution/collectFields.js';
import type { DataObject, Relation, SpatialType } from '../catalog/model.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { PlanContext } from './context.js';
import { objectOf } from './filter.js';
import type { OutField, SelectNode } from './ir/select.js';

export type RelationMode = 'rows' | 'aggregation' | 'buckets';
type Args = Record<string, unknown>;
type PlanRelation = (rel: Relation, mode: RelationMode, key: string, type: GraphQLObjectType, nodes: readonly FieldNode[], args: Args) => { field: OutField; select?: SelectNode };

const SPATIAL_TYPES: readonly SpatialType[] = ['INTERSECTS', 'WITHIN', 'CONTAINS', 'DISJOIN', 'DWITHIN'];

/** Stored columns of `obj` named by `fields`, each asked of the access service as a filter use. */
function columns(ctx: PlanContext, obj: DataObject, fields: unknown, what: string, geometry = false): string[] {
  const names = Array.isArray(fields) ? fields.map(String) : fields === undefined || fields === null ? [] : [String(fields)];
  if (!names.length) throw new PublicError(ErrorCode.BadUserInput, `${what} must name at least one field of "${obj.name}"`);
  return names.map((n) => {
    const f = obj.fields.find((x) => x.name === n);
    if (!f || f.sql !== undefined || f.struct) throw new PublicError(ErrorCode.BadUserInput, `${what}: "${n}" is not a stored column of "${obj.name}"`);
    if (geometry && f.type !== 'Geometry') throw new PublicError(ErrorCode.BadUserInput, `${what}: "${n}" of "${obj.name}" is not a Geometry field`);
    ctx.access.useField(obj.name, f.name, 'filter');
    return f.column;
  });
}

function relationFor(ctx: PlanContext, obj: DataObject, target: DataObject, key: string, spatial: boolean, outer: Args, inner: Args): Relation {
  if (!spatial) {
    const src = columns(ctx, obj, outer.fields, '_join(fields:)');
    const dst = columns(ctx, target, inner.fields, `fields of "${key}" in _join`);
    if (src.length !== dst.length) throw new PublicError(ErrorCode.BadUserInput, `_join(fields:) names ${src.length} fields of "${obj.name}" but "${key}" names ${dst.length} of "${target.name}"`);
    return { name: key, kind: 'many', target: target.name, sourceFields: src, targetFields: dst };
  }
  const type = String(outer.type) as SpatialType;
  if (!SPATIAL_TYPES.includes(type)) throw new PublicError(ErrorCode.BadUserInput, `unknown _spatial type "${type}"`);
  const buffer = typeof outer.buffer === 'number' ? outer.buffer : undefined;
  if (buffer !== undefined && buffer < 0) throw new PublicError(ErrorCode.BadUserInput, '_spatial(buffer:) must not be negative');
  if (type === 'DWITHIN' && buffer === undefined) throw new PublicError(ErrorCode.BadUserInput, '_spatial(type: DWITHIN) needs a buffer (metres)');
  const [source] = columns(ctx, obj, outer.field, '_spatial(field:)', true);
  const [dest] = columns(ctx, target, inner.field, `field of "${key}" in _spatial`, true);
  return { name: key, kind: 'many', target: target.name, sourceFields: [], targetFields: [], spatial: { type, source: source!, dest: dest!, ...(buffer ? { buffer } : {}) } };
}

/**
 * The fields of one `_join` / `_spatial` selection; `extraWhere` receives the parent's conditions
 * of `inner: true` fields planned in the same statement.
 */
export function queryJoinFields(
  ctx: PlanContext, obj: DataObject, spatial: boolean, outer: Args, type: GraphQLObjectType, nodes: readonly FieldNode[], plan: PlanRelation,
  inner: (select: SelectNode) => void,
): OutField[] {
  const out: OutField[] = [];
  const selected = collectSubfields(ctx.schema, ctx.fragments as never, ctx.variables as never, type, nodes);
  for (const [key, fieldNodes] of selected) {
    const node = fieldNodes[0]!;
    const name = node.name.value;
    if (name === '__typename') {
      out.push({ kind: 'const', key, value: type.name });
      continue;
    }
    const def = type.getFields()[name];
    const resultType = def ? getNamedType(def.type) : undefined;
    if (!def || !isObjectType(resultType)) throw new PublicError(ErrorCode.ValidationFailed, `Cannot query field "${name}" on type "${type.name}".`);
    // A denied target is not fetched; the field's resolver answers "forbidden" at its path.
    if (ctx.access.fieldDenied(type.name, name, resultType.name)) continue;
    const args = getArgumentValues(def as GraphQLField<unknown, unknown>, node, ctx.variables as never) as Args;
    const mode: RelationMode = ctx.index.objects.has(name) ? 'rows' : name.endsWith('_bucket_aggregation') ? 'buckets' : 'aggregation';
    const target = objectOf(ctx, mode === 'rows' ? name : name.replace(/_(bucket_)?aggregation$/, ''));
    const r = plan(relationFor(ctx, obj, target, key, spatial, outer, args), mode, key, resultType, fieldNodes, args);
    if (args.inner === true && r.select) inner(r.select);
    out.push(r.field);
  }
  return out;
}
