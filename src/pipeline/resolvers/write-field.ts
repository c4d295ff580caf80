// A write root field (insert, insert_batch, update, delete), in document order within the
// request's transactions. The role's rules narrow the plan (src/planner/root.ts, mutation.ts); the
// rows written are checked against them after the write (write-check.ts).
import type { GraphQLResolveInfo } from 'graphql';
import { responsePathAsArray } from 'graphql';
import type { RequestContext } from '../../executor/request-context.js';
import { planDelete, planInsert, planUpdate, writeWhere } from '../../planner/mutation.js';
import { planRow, rootStamps } from '../../planner/root.js';
import type { Args } from '../../planner/select.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { Row } from '../../sources/types.js';
import { planningWork } from '../metrics.js';
import { checked, checkWritten, hideRows, keysToUpdate, refuseUnchecked, WrittenRows } from '../write-check.js';
import type { FieldRun, RootFieldSetup } from './field-run.js';
import { showSecretsOnce } from './secrets.js';

const operationResult = (affected: number, message: string) => ({ success: true, affected_rows: affected, message });

/**
 * One write field of a mutation, in document order. Once a write of the request failed, its
 * transactions roll back as a whole (SPEC §4.3): the fields after it are not run and say so,
 * instead of failing on an aborted transaction (issue 31).
 */
export function writeStep<T>(ctx: RequestContext, info: GraphQLResolveInfo, fn: () => Promise<T>): Promise<T> {
  return ctx.serial.run(async () => {
    const failed = ctx.transactions.failed;
    if (failed !== undefined) throw new PublicError(ErrorCode.QueryFailed, `not run: the transaction was rolled back because "${failed}" failed`);
    try {
      return await fn();
    } catch (e) {
      ctx.transactions.failed ??= responsePathAsArray(info.path).join('.');
      throw e;
    }
  });
}

/** Reads the row just written, by its key, as the role reads it. */
function readBack(run: FieldRun, args: Args, row: Row): Promise<unknown> {
  planningWork.inc({ step: 'plan' });
  const stmt = run.compile(planRow(run.pctx, run.obj, run.target, args, row, true));
  run.noteReads(run.pctx.reads);
  return run.read(stmt, [...run.pctx.statement.remotes]);
}

/** The rows written are checked against the role's rules (write-check.ts: Hasura's "check"). */
async function insertOne(setup: RootFieldSetup, run: FieldRun, args: Args): Promise<unknown> {
  const { ctx, obj, pctx } = run;
  const data = args.data as Args;
  const written = new WrittenRows();
  const row: Row = await setup.deps.executor.insert(ctx, run.runtime, run.planned(() => planInsert(pctx, obj, data, rootStamps(pctx, run.target))), written.add);
  await written.check(setup.deps.executor, ctx, run.runtime, pctx);
  if (!obj.pk.length || obj.isM2m) return operationResult(1, 'inserted');
  return showSecretsOnce(pctx.access, obj, run.info, data, await readBack(run, args, row));
}

async function insertBatch(setup: RootFieldSetup, run: FieldRun, args: Args): Promise<unknown> {
  const rows = args.data as Args[];
  const stamps = rootStamps(run.pctx, run.target);
  const written = new WrittenRows();
  for (const data of rows) await setup.deps.executor.insert(run.ctx, run.runtime, run.planned(() => planInsert(run.pctx, run.obj, data, stamps)), written.add);
  await written.check(setup.deps.executor, run.ctx, run.runtime, run.pctx);
  return operationResult(rows.length, 'inserted');
}

async function update(setup: RootFieldSetup, run: FieldRun, args: Args): Promise<unknown> {
  const { ctx, obj, pctx, runtime } = run;
  const { executor } = setup.deps;
  const node = run.planned(() => planUpdate(pctx, obj, args.filter as Args | null, args.data as Args, rootStamps(pctx, run.target)));
  // Checked updates learn their rows' keys first: the rows no longer match the filter once changed.
  const keys = checked(pctx, 'update', obj) ? await keysToUpdate(executor, ctx, runtime, pctx, obj, writeWhere(pctx, 'update', obj, args.filter as Args | null)) : undefined;
  const n = await executor.change(ctx, runtime, node);
  if (keys) {
    refuseUnchecked(runtime, n, keys);
    await checkWritten(executor, ctx, runtime, pctx, 'update', obj, keys);
  }
  return operationResult(n, 'updated');
}

async function remove(setup: RootFieldSetup, run: FieldRun, args: Args): Promise<unknown> {
  const plan = run.planned(() => planDelete(run.pctx, run.obj, args.filter as Args | null));
  return operationResult(await setup.deps.executor.change(run.ctx, run.runtime, plan), 'deleted');
}

const WRITES = { insert: insertOne, insert_batch: insertBatch, update, delete: remove } as const;

export function writeField(setup: RootFieldSetup, run: FieldRun, args: Args): Promise<unknown> {
  const kind = setup.root.kind as keyof typeof WRITES;
  const write = WRITES[kind];
  if (!write) throw new PublicError(ErrorCode.Internal, `"${run.info.fieldName}" is not a write`);
  // The object's tag, and the source's (cached function results of the source depend on it).
  run.ctx.written.add(run.obj.name).add(run.obj.source);
  // And the tags of the object's own `@cache(tags:)`: a write to `orders @cache(tags: ["sales"])` drops
  // every result tagged "sales" (hugr's cache page, "Automatic Cache Invalidation on Mutations").
  for (const tag of run.obj.cache?.tags ?? []) run.ctx.written.add(tag);
  if (kind === 'delete') return writeStep(run.ctx, run.info, () => write(setup, run, args));
  // Key or reference errors of inserts and updates do not reveal rows the role cannot read.
  return writeStep(run.ctx, run.info, () => write(setup, run, args).catch((e: unknown) => {
    throw hideRows(run.pctx, run.obj, e);
  }));
}
