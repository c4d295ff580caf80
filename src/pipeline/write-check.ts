// The check after a write (issue 31, Hasura's "check"): every row an insert, a batch insert or an
// update produced must be one the role may read and that passes the write's own rule; otherwise
// the whole mutation is refused and rolled back, instead of leaving rows the role can never see
// again (or moved into another user's rows). Read back in the request's transaction, in chunks so
// that no statement carries more than CHUNK keys.
import type { DataObject } from '../catalog/model.js';
import type { Executor } from '../executor/executor.js';
import type { RequestContext } from '../executor/request-context.js';
import { forbidden } from '../permissions/access.js';
import type { PlanContext } from '../planner/context.js';
import { planKeyCheck, planKeysOf } from '../planner/write-check.js';
import { DbError } from '../executor/db-errors.js';
import type { DataSourceRuntime, Row } from '../sources/types.js';

const CHUNK = 500;

type Op = 'insert' | 'update';

/** Whether writes of `op` to `obj` by this role are checked: it has rules that could hide the rows. */
export function checked(pctx: PlanContext, op: Op, obj: DataObject): boolean {
  return !!obj.pk.length && !!(pctx.access.readFilter(obj.name, pctx.authVars) || pctx.access.writeRule(op, obj.name, pctx.authVars));
}

const list = async (executor: Executor, ctx: RequestContext, runtime: DataSourceRuntime, select: ReturnType<typeof planKeyCheck>): Promise<Row[]> =>
  ((await executor.readCompiled(ctx, runtime, runtime.compiler.compileQuery({ kind: 'list', select }, ctx.timezone), false)) ?? []) as Row[];

/** The keys of the rows an update of `filter` will change, read in its transaction before it runs. */
export async function keysToUpdate(executor: Executor, ctx: RequestContext, runtime: DataSourceRuntime, pctx: PlanContext, obj: DataObject, filter: Record<string, unknown> | null | undefined): Promise<Row[]> {
  await ctx.transactions.connection(runtime);
  return list(executor, ctx, runtime, planKeysOf(pctx, obj, filter));
}

/** Refuses the mutation when a row among `keys` (physical columns) fails the role's rules after the write. */
export async function checkWritten(executor: Executor, ctx: RequestContext, runtime: DataSourceRuntime, pctx: PlanContext, op: Op, obj: DataObject, keys: readonly Row[]): Promise<void> {
  if (!keys.length || !checked(pctx, op, obj)) return;
  const rule = pctx.access.writeRule(op, obj.name, pctx.authVars);
  for (let i = 0; i < keys.length; i += CHUNK) {
    const chunk = keys.slice(i, i + CHUNK);
    const found = await list(executor, ctx, runtime, planKeyCheck(pctx, obj, rule, chunk));
    if (found.length < new Set(chunk.map((k) => JSON.stringify(obj.pk.map((n) => k[obj.fields.find((f) => f.name === n)!.column])))).size) {
      const role = pctx.access.role;
      throw forbidden(op === 'insert'
        ? `role "${role}" may not insert into "${obj.name}" a row its own ${rule ? 'read or insert rules' : 'read rule'} would hide; nothing was written`
        : `role "${role}" may not update rows of "${obj.name}" into a state its own ${rule ? 'read or update rules' : 'read rule'} would hide; nothing was written`);
    }
  }
}

/**
 * An update changed more rows than it had keys for (rows that came to match its filter while it
 * ran): they were not checked, so the mutation is refused as a conflict, to be tried again.
 */
export function refuseUnchecked(runtime: DataSourceRuntime, changed: number, keys: readonly Row[]): void {
  if (changed > keys.length) throw new DbError('conflict', runtime.name);
}

/** The rows an insert stored, by object (nested inserts write several objects). */
export class WrittenRows {
  private readonly rows = new Map<DataObject, Row[]>();

  readonly add = (object: DataObject, row: Row): void => {
    const list = this.rows.get(object);
    if (list) list.push(row);
    else this.rows.set(object, [row]);
  };

  /** Every object's rows pass the role's read and insert rules, or the mutation is refused. */
  async check(executor: Executor, ctx: RequestContext, runtime: DataSourceRuntime, pctx: PlanContext): Promise<void> {
    for (const [object, rows] of this.rows) await checkWritten(executor, ctx, runtime, pctx, 'insert', object, rows);
  }
}

/**
 * A key or reference error of a write, in words that do not tell a row the role cannot read from a
 * missing one, when the role reads some object of the source through a row filter: "a row with
 * the same key exists" would confirm that a hidden row exists, "the referenced row does not exist"
 * that it does not (issue 31).
 */
export function hideRows(pctx: PlanContext, obj: DataObject, e: unknown): unknown {
  if (!(e instanceof DbError) || (e.reason !== 'unique_violation' && e.reason !== 'foreign_key_violation')) return e;
  if (pctx.access.unrestricted) return e;
  for (const o of pctx.index.objects.values()) {
    if (o.source === obj.source && pctx.access.readFilter(o.name, pctx.authVars)) return new DbError('key_refused', e.source);
  }
  return e;
}
