// Cross-source levels (SPEC §5): a relation whose target lives in another source than the statement
// being planned. The target's part is planned exactly as within one source (filters, nested_*,
// aggregations, the target's row filters), but over a table of the parents' keys, so the executor
// runs it once per level for every parent row (src/executor/cross-source.ts).
import type { DataObject, FunctionCallField, Relation, ScalarName } from '../catalog/model.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { PlanContext } from './context.js';
import type { KeyColumn, RemoteNode, RemoteOutField } from './ir/remote.js';
import type { OutField } from './ir/select.js';

/** True when rows of `target` cannot be read inside the statement being planned. */
export function isRemote(ctx: PlanContext, target: DataObject): boolean {
  return !!ctx.statement && target.source !== ctx.statement.source;
}

/** Refuses a use of a cross-source relation that one statement would have to hold (filters, ordering, aggregation paths). */
export function localOnly(ctx: PlanContext, target: DataObject, what: string): void {
  if (ctx.statement && target.source !== ctx.statement.source) {
    throw new PublicError(ErrorCode.BadUserInput, `${what} reaches "${target.name}" of source "${target.source}": across sources a relation can be selected, not used here`);
  }
}

/** Owner columns a relation's correlation reads: its pairs and the `[source.f]` of `@join(sql:)`. */
export function relationKeyColumns(rel: Relation): string[] {
  const cols = [...rel.sourceFields];
  for (const p of rel.joinSql ?? []) if (typeof p !== 'string' && p.side === 'source') cols.push(p.column);
  if (rel.spatial) cols.push(rel.spatial.source);
  return [...new Set(cols)];
}

/** Owner columns a cross-source `@function_call` reads: its mapped arguments and join fields. */
export function callKeyColumns(obj: DataObject, call: FunctionCallField): string[] {
  const fields = [...Object.values(call.args), ...(call.join?.sourceFields ?? [])];
  return [...new Set(fields.map((n) => obj.fields.find((f) => f.name === n)?.column ?? n))];
}

/**
 * Plans one cross-source level. `columns`: the parent's physical columns the target's part
 * correlates with; `build` plans the field under key `v` with the keys table as its parent alias
 * (whose columns carry the same names, so the usual correlation applies unchanged).
 */
export function planRemote(
  ctx: PlanContext, parent: DataObject, parentAlias: string, key: string, source: string, columns: readonly string[], inner: boolean,
  build: (rctx: PlanContext, keysAlias: string) => OutField, call?: RemoteNode['call'],
): RemoteOutField {
  if (!ctx.statement) throw new PublicError(ErrorCode.Internal, 'a cross-source level outside a read statement');
  const scalarOf = (column: string): ScalarName => parent.fields.find((f) => f.column === column)?.type ?? 'String';
  const keys: KeyColumn[] = columns.map((c) => ({ name: c, scalar: scalarOf(c) }));
  const rctx: PlanContext = { ...ctx, statement: { source, remotes: [] } };
  const alias = ctx.nextAlias();
  const v = build(rctx, alias);
  const node: RemoteNode = {
    kind: 'remote',
    id: ctx.statement.remotes.length,
    source,
    keys,
    query: {
      kind: 'list',
      select: {
        kind: 'select',
        from: { kind: 'from', alias, name: [], keys: { columns: [{ name: '__i', scalar: 'Int' }, ...keys], rows: [] } },
        fields: [{ kind: 'scalar', key: 'i', expr: { kind: 'column', table: alias, column: '__i' }, scalar: 'Int', list: false }, v],
        orderBy: [],
      },
    },
    remotes: rctx.statement!.remotes,
    inner,
    ...(call ? { call } : {}),
  };
  ctx.statement.remotes.push(node);
  return { kind: 'remote', key, id: node.id, keys: keys.map((k) => ({ expr: { kind: 'column', table: parentAlias, column: k.name }, scalar: k.scalar })) };
}
