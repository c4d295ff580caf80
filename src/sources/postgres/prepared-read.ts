// A read of a named (prepared) statement, handed to pg's client as a query object of its own: pg's
// documented extension point for queries (a "Submittable", what pg-cursor and pg-query-stream
// are). pg's own Query asks the server to describe the result on every execution and parses that
// description again each time (a RowDescription of one field object per column, then a type
// parser lookup per column); a prepared statement's result columns cannot change while it stays
// prepared on its connection (PostgreSQL refuses to run it with another result type: "cached plan
// must not change result type"), so the description is asked for once per statement and
// connection and kept (issue 30: ~16 µs of a Q1 request's CPU). It also skips what svc does not use
// of pg's Query per execution: its config normalisation, result object, command tag parse, the
// 'row' event per row and the promise with its catch handler.
import pg from 'pg';

/** Text value parsers by type OID, as pg's `types` option gives them. */
export interface TypeParsers {
  getTypeParser(oid: number, format?: 'text'): (text: string) => unknown;
}

/** The rows of a read, each an array in column order, and the type OID of each column. */
export interface ReadRows {
  readonly rows: unknown[][];
  readonly oids: readonly number[];
}

/** A statement's result columns as described once on a connection, with the parsers of one `types`. */
interface Described {
  readonly oids: readonly number[];
  readonly types: TypeParsers;
  readonly parsers: readonly ((text: string) => unknown)[];
}

/**
 * pg's connection as a query object sees it: the protocol messages it writes and the statements it
 * knows are prepared (pg keeps both maps; a failed parse is forgotten by pg itself).
 */
interface Wire {
  readonly stream: { cork?(): void; uncork?(): void };
  readonly parsedStatements: Record<string, string | undefined>;
  readonly submittedNamedStatements: Record<string, string | undefined>;
  parse(q: { name: string; text: string }): void;
  bind(c: { statement: string; values: readonly (string | Buffer | null)[] }): void;
  describe(m: { type: 'P'; name: string }): void;
  execute(c: { portal: string }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

/** Descriptions by connection, then statement name: a connection's statements are bounded by its owner (MAX_NAMED). */
const described = new WeakMap<object, Map<string, Described>>();
const prepareValue = (pg as unknown as { utils: { prepareValue(v: unknown): string | Buffer | null } }).utils.prepareValue;

class PreparedRead {
  private readonly rows: unknown[][] = [];
  private described: Described | undefined;
  private known: Map<string, Described> | undefined;
  private failure: unknown;

  constructor(
    /** pg's client reads `name` and `text` of the active query (its parse bookkeeping). */
    readonly name: string,
    readonly text: string,
    private readonly values: readonly unknown[],
    private readonly types: TypeParsers,
    /** Called once: pg's client may replace it (query_timeout wraps it). */
    public callback: ((err: unknown, r?: ReadRows) => void) | undefined,
  ) {}

  /** Writes Parse (first time on this connection), Bind, Describe (until described), Execute, Sync. */
  submit(connection: Wire): Error | null {
    let values: (string | Buffer | null)[];
    try {
      // Before anything is written: an Error returned here is reported by pg's client, nothing sent.
      values = this.values.map((v) => prepareValue(v));
    } catch (e) {
      return e instanceof Error ? e : new Error(String(e));
    }
    let known = described.get(connection);
    if (!known) described.set(connection, (known = new Map()));
    this.known = known;
    const parsed = connection.parsedStatements[this.name] !== undefined;
    const kept = parsed ? known.get(this.name) : undefined;
    if (kept) this.described = kept.types === this.types ? kept : describe(kept.oids, this.types);
    connection.stream.cork?.();
    try {
      if (!parsed && connection.submittedNamedStatements[this.name] === undefined) {
        connection.parse({ name: this.name, text: this.text });
        connection.submittedNamedStatements[this.name] = this.text;
      }
      connection.bind({ statement: this.name, values });
      if (!kept) connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '' });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(msg: { fields: readonly { dataTypeID: number }[] }): void {
    this.described = describe(msg.fields.map((f) => f.dataTypeID), this.types);
    this.known!.set(this.name, this.described);
  }

  handleDataRow(msg: { fields: readonly (string | null)[] }): void {
    if (this.failure !== undefined) return;
    const fields = msg.fields;
    const parsers = this.described!.parsers;
    const row = new Array<unknown>(fields.length);
    try {
      for (let i = 0; i < fields.length; i++) {
        const v = fields[i]!;
        row[i] = v === null ? null : parsers[i]!(v);
      }
    } catch (e) {
      // Reported once the server is ready again, as pg's Query does: the connection stays in step.
      this.failure = e;
      return;
    }
    this.rows.push(row);
  }

  handleReadyForQuery(): void {
    if (this.failure !== undefined) return this.done(this.failure);
    this.done(undefined, { rows: this.rows, oids: this.described?.oids ?? [] });
  }

  handleError(err: unknown): void {
    this.done(err);
  }

  private done(err: unknown, r?: ReadRows): void {
    const callback = this.callback;
    this.callback = undefined;
    callback?.(err, r);
  }

  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
  handleCopyInResponse(connection: Wire): void {
    connection.sendCopyFail('a read does not copy');
  }
}

function describe(oids: readonly number[], types: TypeParsers): Described {
  return { oids, types, parsers: oids.map((oid) => types.getTypeParser(oid, 'text')) };
}

/** The rows of the named statement `name` (`text`) with `values`, read on `c`. */
export function readPrepared(c: pg.ClientBase, name: string, text: string, values: readonly unknown[], types: TypeParsers): Promise<ReadRows> {
  return new Promise((resolve, reject) => {
    c.query(new PreparedRead(name, text, values, types, (err, r) => (err === undefined || err === null ? resolve(r!) : reject(err))) as unknown as pg.Submittable);
  });
}
