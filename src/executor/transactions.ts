// One transaction per source for all mutations of a request (SPEC §4.3). Opened on first use, held
// open across resolvers, committed or rolled back once the request's execution has finished.
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
  private open: Open | undefined;

  get active(): boolean {
    return this.open !== undefined;
  }

  connection(runtime: DataSourceRuntime): Promise<SourceConnection> {
    if (this.open) {
      if (this.open.source !== runtime.name) {
        // Two-phase commit across sources is not offered; refuse rather than half-commit.
        throw new PublicError(
          ErrorCode.BadUserInput,
          `a request may write to one data source only; this one writes to "${this.open.source}" and "${runtime.name}"`,
        );
      }
      return this.open.conn;
    }
    let setConn!: (c: SourceConnection) => void;
    let failConn!: (e: unknown) => void;
    const conn = new Promise<SourceConnection>((res, rej) => { setConn = res; failConn = rej; });
    const entry: Open = { source: runtime.name, conn, finish: () => undefined, done: Promise.resolve() };
    const done = runtime
      .transaction((c) => {
        setConn(c);
        return new Promise<void>((res, rej) => { entry.finish = (commit) => (commit ? res() : rej(new Rollback())); });
      })
      .catch((e: unknown) => {
        failConn(e);
        if (!(e instanceof Rollback)) throw e;
      });
    (entry as { done: Promise<void> }).done = done;
    this.open = entry;
    return conn;
  }

  /** Commits (or rolls back) whatever is open. A failed commit rejects. */
  async end(commit: boolean): Promise<void> {
    const open = this.open;
    this.open = undefined;
    if (!open) return;
    await open.conn.catch(() => undefined);
    open.finish(commit);
    await open.done;
  }
}
