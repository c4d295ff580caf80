// Cross-source levels (SPEC §5): the parent statement leaves a marker with the parent row's keys
// where a relation to another source goes (src/planner/ir/remote.ts). Here all markers of one level
// are gathered over the whole result, their distinct keys sent to the target source in ONE
// statement (a list parameter per key column), and each answer put in its marker's place. Deeper
// levels are answered the same way over all answers of their level: a statement per source per
// relation level, never one per row.
import { REMOTE_MARKER, type RemoteNode } from '../planner/ir/remote.js';
import type { RootQuery } from '../planner/ir/select.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { CompiledSql } from '../sql/compiler.js';
import type { SourceRegistry } from '../sources/registry.js';
import type { DataSourceRuntime } from '../sources/types.js';
import type { Executor } from './executor.js';
import type { RequestContext } from './request-context.js';

type Obj = Record<string, unknown>;

interface Hit {
  readonly holder: Obj;
  readonly key: string;
  readonly marker: Obj;
}

/** Parents of an `inner: true` level that got no related rows; removed once every level is answered. */
const DROPPED = Symbol('svc.dropped');

const isMarker = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v) && REMOTE_MARKER in v;

function collect(value: unknown, hits: Map<number, Hit[]>): void {
  if (Array.isArray(value)) {
    for (const v of value) collect(v, hits);
    return;
  }
  if (!value || typeof value !== 'object') return;
  for (const [key, v] of Object.entries(value as Obj)) {
    if (isMarker(v)) {
      const id = Number(v[REMOTE_MARKER]);
      let list = hits.get(id);
      if (!list) hits.set(id, (list = []));
      list.push({ holder: value as Obj, key, marker: v });
    } else collect(v, hits);
  }
}

/** Removes parents marked DROPPED from their lists; a dropped object outside a list becomes null. */
function prune(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => !(v && typeof v === 'object' && DROPPED in v)).map(prune);
  if (!value || typeof value !== 'object') return value;
  if (DROPPED in value) return null;
  for (const [k, v] of Object.entries(value as Obj)) if (v && typeof v === 'object') (value as Obj)[k] = prune(v);
  return value;
}

/** The level's statement with the distinct key rows in its keys table. */
function withKeys(query: RootQuery, rows: unknown[][]): RootQuery {
  if (query.kind !== 'list' || !query.select.from.keys) throw new PublicError(ErrorCode.Internal, 'a cross-source level without a keys table');
  const from = query.select.from;
  return { ...query, select: { ...query.select, from: { ...from, keys: { columns: from.keys!.columns, rows } } } };
}

export class CrossSource {
  constructor(
    private readonly executor: Executor,
    private readonly registry: SourceRegistry,
  ) {}

  /** Runs a root statement whose plan has cross-source levels, and answers them all. */
  async read(ctx: RequestContext, runtime: DataSourceRuntime, stmt: CompiledSql, remotes: readonly RemoteNode[]): Promise<unknown> {
    const value = await this.executor.readCompiled(ctx, runtime, stmt, false);
    await this.answer(ctx, value, remotes);
    return prune(value);
  }

  private async answer(ctx: RequestContext, value: unknown, remotes: readonly RemoteNode[]): Promise<void> {
    if (!remotes.length) return;
    const hits = new Map<number, Hit[]>();
    collect(value, hits);
    await Promise.all([...hits].map(([id, list]) => {
      const node = remotes.find((r) => r.id === id);
      if (!node) throw new PublicError(ErrorCode.Internal, `no cross-source level ${id}`);
      return this.level(ctx, node, list);
    }));
  }

  private async level(ctx: RequestContext, node: RemoteNode, hits: readonly Hit[]): Promise<void> {
    // Parents sharing a key share one key row (and its answer).
    const index = new Map<string, number>();
    const rows: unknown[][] = [];
    const rowOf = hits.map((h) => {
      const values = node.keys.map((_, i) => h.marker[`k${i}`] ?? null);
      const text = JSON.stringify(values, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
      let n = index.get(text);
      if (n === undefined) {
        index.set(text, (n = rows.length));
        rows.push([n, ...values]);
      }
      return n;
    });
    const runtime = this.registry.runtime(node.source);
    // Every statement or request of a level goes through the executor (counted, timed, traced, bounded).
    const run = (stmt: CompiledSql) => this.executor.readCompiled(ctx, runtime, stmt, false);
    let result: unknown;
    try {
      result = runtime.fetchLevel ? await runtime.fetchLevel(node, rows, run) : await run(runtime.compiler.compileQuery(withKeys(node.query, rows), ctx.timezone));
    } catch (e) {
      if (!(e instanceof PublicError)) throw e;
      // The other source failed (an error of the remote, a timeout): this field fails at each of its
      // paths, naming the source, and the rest of the answer stands (GraphQL field errors).
      ctx.nestedFailures++;
      for (const h of hits) h.holder[h.key] = e;
      return;
    }
    // Deeper levels are answered over all answers of this level at once.
    await this.answer(ctx, result, node.remotes);
    const answers = new Map<number, unknown>();
    for (const r of (result ?? []) as Obj[]) {
      // A source answering key by key (http) may fail for some keys only: those parents get the error.
      if (r.v instanceof Error) ctx.nestedFailures++;
      answers.set(Number(r.i), r.v ?? null);
    }
    hits.forEach((h, n) => {
      const v = answers.get(rowOf[n]!) ?? null;
      h.holder[h.key] = v;
      if (node.inner && (v === null || (Array.isArray(v) && !v.length))) (h.holder as Record<symbol, unknown>)[DROPPED] = true;
    });
  }
}
