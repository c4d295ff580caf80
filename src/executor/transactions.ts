// One transaction per source for all mutations of a request (SPEC §4.3). Each is opened on the
// source's first use, held open across resolvers, and ended once the request's execution has
// finished: every statement of every source runs first; only when all succeeded are the sources
// committed, one after another in the order the request first used them (docs/mutations.md).
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { DataSourceRuntime, SourceConnection } from '../sources/types.js';

class Rollback extends Error {}

interface Open {
  readonly source: string;
  readonly conn: Promise<SourceConnection>;
  finish: (commit: boolean) => void;
  readonly done: Promise<void>;
}

export class RequestTransactions {
  /**
   * In the order of first use: the commit order. Made on first use, as `committed`: every request
   * context has transactions, few open one (issue 30: two maps per read request).
   */
  private open: Map<string, Open> | undefined;
  /** The response path of the first write field that failed: nothing of the request will be committed. */
  failed: string | undefined;
  /** What to do once every source committed (by key: once per request); dropped on rollback. */
  private committed: Map<string, () => Promise<void> | void> | undefined;

  /**
   * Runs `fn` after the request's commits succeed (a schema rebuild after its descriptions changed).
   * A key given again runs once, at its latest place: after everything registered before it.
   */
  afterCommit(key: string, fn: () => Promise<void> | void): void {
    const committed = (this.committed ??= new Map());
    committed.delete(key);
    committed.set(key, fn);
  }

  get active(): boolean {
    return this.open !== undefined && this.open.size > 0;
  }

  connection(runtime: DataSourceRuntime): Promise<SourceConnection> {
    const existing = this.open?.get(runtime.name);
    if (existing) return existing.conn;
    let setConn!: (c: SourceConnection) => void;
    let failConn!: (e: unknown) => void;
    const conn = new Promise<SourceConnection>((res, rej) => { setConn = res; failConn = rej; });
    const entry: Open = { source: runtime.name, conn, finish: () => undefined, done: Promise.resolve() };
    const done = runtime
      .transaction((c) => {
        setConn(c);
        return new Promise<void>((res, rej) => { entry.finish = (commit) => (commit ? res() : rej(new Rollback())); });
      }, this)
      .catch((e: unknown) => {
        failConn(e);
        if (!(e instanceof Rollback)) throw e;
      });
    (entry as { done: Promise<void> }).done = done;
    (this.open ??= new Map()).set(runtime.name, entry);
    return conn;
  }

  /**
   * Commits (or rolls back) whatever is open. Commits go source by source in request order; when one
   * fails, the sources after it are rolled back and the error names those already committed.
   */
  async end(commit: boolean): Promise<void> {
    const all = [...(this.open?.values() ?? [])];
    const after = [...(this.committed?.values() ?? [])];
    this.open?.clear();
    this.committed?.clear();
    await Promise.all(all.map((o) => o.conn.catch(() => undefined)));
    if (!commit) {
      for (const o of all) o.finish(false);
      await Promise.all(all.map((o) => o.done.catch(() => undefined)));
      return;
    }
    const committed: string[] = [];
    for (const [i, o] of all.entries()) {
      o.finish(true);
      try {
        await o.done;
        committed.push(o.source);
      } catch (e) {
        const rest = all.slice(i + 1);
        for (const r of rest) r.finish(false);
        await Promise.all(rest.map((r) => r.done.catch(() => undefined)));
        throw new CommitError(o.source, committed, e);
      }
    }
    for (const fn of after) await fn();
  }
}

/** A commit that failed after all statements had succeeded (a conflict, a lost connection). */
export class CommitError extends PublicError {
  constructor(readonly source: string, readonly committed: readonly string[], override readonly cause: unknown) {
    super(
      ErrorCode.QueryFailed,
      committed.length
        ? `the writes to "${source}" could not be committed and were rolled back, as were those to the sources after it; ` +
          `the writes to ${committed.map((s) => `"${s}"`).join(', ')} had already been committed`
        : `the writes to "${source}" could not be committed; nothing was written`,
    );
  }
}
