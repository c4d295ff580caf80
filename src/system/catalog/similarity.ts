// Similarity order of the `core.catalog` views (issue 17 item 4): `catalogs`, `types`, `fields` and
// `modules` take `args: {query: "text"}` and answer `distance` (cosine distance between the row's
// `vec` and the text's embedding), so `order_by: [{field: "distance"}]` ranks them by meaning.
//
// The view SQL marks where the query's vector goes with `svc_embed([$query])`. The text arrives as a
// bound parameter; this runtime, in front of the core database's, embeds it through EMBEDDER_URL
// before the statement runs and rebinds the parameter to the vector (JSON text cast to the
// database's float list). Nothing else of the planner or the resolvers needs to know.
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { CompiledSql } from '../../sql/compiler.js';
import type { DataSourceRuntime } from '../../sources/types.js';
import type { Embedder } from './embedder.js';

const MARK = /svc_embed\(CAST\(\$(\d+) AS [A-Za-z ]+\)\)/g;
/** Recently embedded texts: paging through one search asks the embedder once. */
const REMEMBERED = 256;

export class SimilarityRuntime {
  private readonly recent = new Map<string, Promise<number[]>>();

  constructor(
    private readonly inner: DataSourceRuntime,
    private readonly embedder: Embedder | undefined,
  ) {}

  /** The inner runtime with statements carrying `svc_embed` rewritten first; all else is the inner's. */
  wrap(): DataSourceRuntime {
    const inner = this.inner;
    return {
      get name() { return inner.name; },
      get type() { return inner.type; },
      get compiler() { return inner.compiler; },
      get readOnly() { return inner.readOnly; },
      tableName: (obj) => inner.tableName(obj),
      functionName: (name) => inner.functionName(name),
      get pool() { return inner.pool; },
      queryJson: async (stmt, signal) => inner.queryJson(await this.rewrite(stmt), signal),
      ...(inner.queryText ? { queryText: async (stmt: CompiledSql, signal?: AbortSignal) => inner.queryText!(await this.rewrite(stmt), signal) } : {}),
      transaction: (fn, owner) => inner.transaction(fn, owner),
      rows: (sql, params) => inner.rows(sql, params),
      exec: (sql) => inner.exec(sql),
      // The core database is closed by its own source.
      close: async () => undefined,
      ...(inner.lineageDataset ? { lineageDataset: (t: readonly string[]) => inner.lineageDataset!(t) } : {}),
      ...(inner.poolStats ? { poolStats: () => inner.poolStats!() } : {}),
      ...(inner.ping ? { ping: () => inner.ping!() } : {}),
    };
  }

  /** Root fields run concurrently: they share one embedder call per text (the promise is kept). */
  private vector(text: string): Promise<number[]> {
    const hit = this.recent.get(text);
    if (hit) return hit;
    if (!this.embedder) return Promise.reject(new PublicError(ErrorCode.BadUserInput, 'ordering by similarity needs embeddings: set EMBEDDER_URL'));
    const p = this.embedder.embed([text]).then(([v]) => v!);
    if (this.recent.size >= REMEMBERED) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(text, p);
    p.catch(() => this.recent.delete(text));
    return p;
  }

  async rewrite(stmt: CompiledSql): Promise<CompiledSql> {
    if (!stmt.sql.includes('svc_embed(')) return stmt;
    const params = [...stmt.params];
    for (const m of stmt.sql.matchAll(MARK)) {
      const i = Number(m[1]) - 1;
      const text = params[i];
      params[i] = typeof text === 'string' && text.trim() ? JSON.stringify(await this.vector(text)) : null;
    }
    const pg = this.inner.type === 'postgres';
    const sql = stmt.sql.replace(MARK, (_, n: string) => (pg ? `CAST(translate($${n}, '[]', '{}') AS real[])` : `CAST($${n} AS FLOAT[])`));
    return { ...stmt, sql, params };
  }
}
