// An `http` data source (SPEC §3.1, issue 19 item 4): a REST service whose endpoints are catalog
// functions (docs/http-sources.md). Query functions are GET (or any method the catalog names),
// mutation functions usually POST/PUT/DELETE; the JSON answer is cast to the declared type.
import { type CatalogFunction, type DataObject, functionKey, type ResolvedCatalog } from '../../catalog/model.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { stringifyJson } from '../../shared/json.js';
import { Semaphore } from '../../shared/semaphore.js';
import type { RemoteNode } from '../../planner/ir/remote.js';
import type { CompiledSql } from '../../sql/compiler.js';
import type { DataSourceRuntime, Row, SourceConnection } from '../types.js';
import { castTo, type CastContext } from './cast.js';
import { type HttpRequest, send } from './client.js';
import { HttpCompiler, type HttpStatement, isHttpStatement } from './compiler.js';
import { CredentialSource } from './credentials.js';
import { type Endpoint, endpointOf } from './endpoints.js';
import { type OpenApiDocument, readOpenApi } from './openapi.js';
import { type HttpSourceOptions, parseHttpPath } from './options.js';
import { applyJq, buildRequest, type JqRunner, type RawRequest } from './request.js';
import { evaluate } from './request-sql.js';
import { checkViews, inlineRequests } from './views.js';
import { OAuth2Tokens } from './oauth2.js';
import { resolveSecurity } from './security.js';
import { DuckDbSource } from '../duckdb/source.js';
import type { DuckDbEngine } from '../duckdb/engine.js';

export interface HttpSourceSpec {
  readonly name: string;
  /** The path with [$ENV] substituted. */
  readonly path: string;
  readonly readOnly: boolean;
  readonly catalog?: ResolvedCatalog;
  /** QUERY_TIMEOUT: caps one attempt's time. */
  readonly queryTimeoutMs: number;
  /** jq for hugr's form (`http_data_source_request_scalar(..., 'jq')`); without it a jq program is an error. */
  readonly jq?: JqRunner;
  /** The embedded DuckDB: the views of the source run there (views.ts). */
  readonly engine?: DuckDbEngine;
  /** x-svc-spec-path: a local OpenAPI document, read within CATALOG_ALLOWED_PATHS. */
  readonly readFile?: LocalFileReader;
}

/** Reads a local file the server may read (CATALOG_ALLOWED_PATHS), for x-svc-spec-path. */
export type LocalFileReader = (path: string) => Promise<string>;

/**
 * The OpenAPI document (x-svc-spec-path or x-svc-spec-uri, fetched with the source's credentials),
 * and x-svc-security resolved against it: credentials are ready when this returns.
 */
export async function prepare(name: string, o: HttpSourceOptions, credentials: CredentialSource, readFile?: LocalFileReader, jq?: JqRunner): Promise<OpenApiDocument | undefined> {
  // A security object that names its type needs no document; one that does is resolved after it.
  const early = o.security && typeof o.security.type === 'string' && o.security.type !== 'oauth2';
  if (early) credentials.use(resolveSecurity(name, o.security!, undefined));
  let doc: OpenApiDocument | undefined;
  if (o.specPath) {
    if (!readFile) throw new PublicError(ErrorCode.BadUserInput, `data source "${name}": x-svc-spec-path cannot be read here`);
    doc = readOpenApi(name, await readFile(o.specPath));
  } else doc = await fetchOpenApi(name, o, credentials);
  if (o.security && !early) {
    const security = resolveSecurity(name, o.security, doc?.schemes);
    credentials.use(security, security.type === 'oauth2' ? new OAuth2Tokens(name, security, o.base, o.timeoutMs, jq) : undefined);
  }
  return doc;
}

/** The OpenAPI document, fetched with the source's credentials. */
export async function fetchOpenApi(name: string, o: HttpSourceOptions, credentials: CredentialSource): Promise<OpenApiDocument | undefined> {
  if (!o.specUri) return undefined;
  const url = new URL(o.specUri, o.base.href.endsWith('/') ? o.base : new URL(`${o.base.href}/`));
  const c = await credentials.get();
  const text = await send(name, o, { label: `GET ${o.specUri} (OpenAPI document)`, method: 'GET', url, headers: { accept: 'application/json, application/yaml', ...c.headers } });
  return readOpenApi(name, typeof text === 'string' ? text : stringifyJson(text));
}

type Run = (stmt: CompiledSql) => Promise<unknown>;

/**
 * `@table_function_call_join`: the rows of a table function's answer that match the parent row
 * (answer field = key column); null when none, as within one source.
 */
function matching(answer: unknown, row: readonly unknown[], join: NonNullable<RemoteNode['call']>['join'] & object): unknown[] | null {
  const same = (a: unknown, b: unknown) => a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b);
  const kept = (Array.isArray(answer) ? answer : []).filter((r) => !!r && typeof r === 'object' && join.every((j) => same((r as Record<string, unknown>)[j.field], row[j.key + 1])));
  return kept.length ? kept : null;
}

function valueText(v: unknown): string {
  return typeof v === 'object' && v !== null ? stringifyJson(v) : String(v);
}

export class HttpSource implements DataSourceRuntime {
  readonly type = 'http' as const;
  readonly compiler: HttpCompiler;
  private readonly batches: Semaphore;

  private constructor(
    readonly name: string,
    readonly readOnly: boolean,
    private readonly o: HttpSourceOptions,
    private readonly credentials: CredentialSource,
    private readonly endpoints: ReadonlyMap<string, Endpoint>,
    private readonly cast: CastContext,
    private readonly jq: JqRunner | undefined,
    /** Runs the SQL of the source's views (hugr's form), with their requests' answers inlined. */
    private readonly views: DuckDbSource | undefined,
  ) {
    this.compiler = new HttpCompiler(name, endpoints, views?.compiler);
    this.batches = new Semaphore(o.concurrency);
  }

  static async connect(spec: HttpSourceSpec): Promise<HttpSource> {
    const o = parseHttpPath(spec.name, spec.path, spec.queryTimeoutMs);
    const credentials = new CredentialSource(spec.name, o);
    const doc = await prepare(spec.name, o, credentials, spec.readFile, spec.jq);
    const catalog = spec.catalog;
    const objects = catalog?.objects ?? [];
    checkViews(spec.name, objects);
    if (objects.length && !spec.engine) throw new PublicError(ErrorCode.Internal, `http source "${spec.name}": views need the embedded DuckDB`);
    const endpoints = new Map((catalog?.functions ?? []).map((fn) => [functionKey(fn), endpointOf(spec.name, fn, doc)] as const));
    const structs = new Map((catalog?.structs ?? []).map((s) => [s.name, s] as const));
    const views = objects.length ? DuckDbSource.over(spec.engine!, spec.name) : undefined;
    return new HttpSource(spec.name, spec.readOnly, o, credentials, endpoints, { source: spec.name, structs }, spec.jq, views);
  }

  /** No namespace: the planner asks it of every source for `[$catalog]`; an http source has no tables. */
  tableName(obj: DataObject): readonly string[] {
    return [obj.table];
  }

  functionName(name: string): readonly string[] {
    return [name];
  }

  /**
   * A request in hugr's terms (catalog SQL, views, `core.http_data_source_request_scalar`): sent
   * with the source's credentials, the answer after the jq program. `label` names it in messages.
   */
  async request(r: RawRequest, label: string, rows = false): Promise<unknown> {
    return applyJq(this.jq, this.name, r.jq, await this.sendWith(async () => buildRequest(this.name, this.o.base, await this.credentials.get(), r, label)), rows);
  }

  /** Sends; an OAuth2 token the API refuses (401) is fetched again and the request sent once more. */
  private async sendWith(build: () => Promise<HttpRequest>): Promise<unknown> {
    try {
      return await send(this.name, this.o, await build());
    } catch (e) {
      if (e instanceof PublicError && / answered 401\b/.test(e.message) && this.credentials.rejected()) return send(this.name, this.o, await build());
      throw e;
    }
  }

  /** One call: the request built from the statement, the answer cast to the function's type. */
  private async call(stmt: CompiledSql): Promise<unknown> {
    if (!isHttpStatement(stmt)) throw new PublicError(ErrorCode.Internal, `http source "${this.name}" was given SQL`);
    const { endpoint, args } = (stmt as HttpStatement).http;
    if (endpoint.request) {
      const what = `http source "${this.name}": ${stmt.sql}`;
      const v = (x: Parameters<typeof evaluate>[0]) => evaluate(x, args, what);
      const path = v(endpoint.request.path);
      if (path === null || path === undefined) throw new PublicError(ErrorCode.BadUserInput, `${what}: the path has a null part (an argument it names is null)`);
      const raw: RawRequest = { method: endpoint.method, path: String(path), headers: v(endpoint.request.headers), params: v(endpoint.request.params), body: v(endpoint.request.body), jq: String(v(endpoint.request.jq) ?? '') };
      const answer = await this.request(raw, stmt.sql, endpoint.fn.isTable);
      return castTo(this.cast, endpoint.fn.returns.type, endpoint.fn.returns.list || endpoint.fn.isTable, answer);
    }
    const c = await this.credentials.get();
    const url = new URL(this.o.base.href);
    url.pathname = `${url.pathname.replace(/\/$/, '')}${endpoint.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const v = args[endpoint.params.find((p) => p.place === 'path' && p.wire === name)!.arg];
      if (v === null || v === undefined) throw new PublicError(ErrorCode.BadUserInput, `http source "${this.name}": path parameter {${name}} of "${endpoint.fn.name}" has no value`);
      return encodeURIComponent(valueText(v));
    })}`;
    for (const [k, v] of Object.entries(c.query)) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json', ...c.headers };
    const body: Record<string, unknown> = {};
    let whole: unknown;
    for (const p of endpoint.params) {
      const v = args[p.arg];
      if (v === null || v === undefined) continue;
      if (p.place === 'query') for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(p.wire, valueText(item));
      else if (p.place === 'header') headers[p.wire.toLowerCase()] = valueText(v);
      else if (p.place === 'body') body[p.wire] = v;
      else if (p.place === 'whole_body') whole = v;
    }
    const hasBody = whole !== undefined || Object.keys(body).length > 0;
    if (hasBody) headers['content-type'] = 'application/json';
    const answer = await send(this.name, this.o, {
      label: stmt.sql, method: endpoint.method, url, headers,
      ...(hasBody ? { body: stringifyJson(whole !== undefined ? whole : body) } : {}),
    });
    return castTo(this.cast, endpoint.fn.returns.type, endpoint.fn.returns.list, answer);
  }

  async queryJson(stmt: CompiledSql): Promise<unknown> {
    if (isHttpStatement(stmt) || !this.views) return this.call(stmt);
    return this.views.queryJson(await inlineRequests(stmt, (r, label) => this.request(r, label, true)));
  }

  /**
   * A function called for many rows (`@function_call` from a table of another source): equal
   * argument sets are sent once, at most `x-svc-concurrency` requests at a time, each through
   * `run`. One outcome per entry of `calls`, in order: a key that failed does not fail the others.
   */
  private async settle(fn: CatalogFunction, calls: readonly Readonly<Record<string, unknown>>[], run: Run): Promise<PromiseSettledResult<unknown>[]> {
    const endpoint = this.endpoints.get(functionKey(fn));
    if (!endpoint) throw new PublicError(ErrorCode.BadUserInput, `http source "${this.name}" has no endpoint for function "${fn.name}"`);
    const distinct = new Map<string, Promise<unknown>>();
    const keyOf = (args: Readonly<Record<string, unknown>>) => stringifyJson(fn.args.map((a) => args[a.name] ?? null));
    for (const args of calls) {
      const key = keyOf(args);
      if (!distinct.has(key)) distinct.set(key, this.batches.run(() => run(this.compiler.statement(endpoint, args))));
    }
    return Promise.allSettled(calls.map((args) => distinct.get(keyOf(args))!));
  }

  /** The answers of `fn` for many argument sets (see settle); the first failure fails the batch. */
  async callBatch(fn: CatalogFunction, calls: readonly Readonly<Record<string, unknown>>[], run: Run = (stmt) => this.call(stmt)): Promise<unknown[]> {
    return (await this.settle(fn, calls, run)).map((s) => {
      if (s.status === 'rejected') throw s.reason;
      return s.value;
    });
  }

  /**
   * A `@function_call` / `@table_function_call_join` level from rows of another source (SPEC §5):
   * the function called once per distinct argument set. A key whose call failed answers its
   * PublicError (the field fails at those parents' paths only).
   */
  async fetchLevel(node: RemoteNode, rows: readonly (readonly unknown[])[], run: Run): Promise<{ i: number; v: unknown }[]> {
    const call = node.call;
    if (!call) throw new PublicError(ErrorCode.BadUserInput, `http source "${this.name}" serves functions only: no relation can lead into it`);
    const argsOf = (row: readonly unknown[]) => Object.fromEntries(Object.entries(call.args).map(([a, m]) => [a, 'key' in m ? row[m.key + 1] : m.value]));
    // A row without a value for a required argument answers null without a request, as a strict
    // SQL function called with NULL would.
    const required = call.fn.args.filter((a) => a.nonNull).map((a) => a.name);
    const given = (args: Record<string, unknown>) => required.every((a) => args[a] !== null && args[a] !== undefined);
    const asked = rows.filter((row) => given(argsOf(row)));
    const settled = new Map((await this.settle(call.fn, asked.map(argsOf), run)).map((s, n) => [asked[n]!, s] as const));
    return rows.map((row) => {
      const s = settled.get(row);
      if (!s) return { i: Number(row[0]), v: null };
      if (s.status === 'rejected' && !(s.reason instanceof PublicError)) throw s.reason;
      const v = s.status === 'rejected' ? s.reason : call.join ? matching(s.value, row, call.join) : s.value;
      return { i: Number(row[0]), v };
    });
  }

  /** Mutation functions join the request's "transaction": an http call is not transactional (docs). */
  async transaction<T>(fn: (conn: SourceConnection) => Promise<T>): Promise<T> {
    return fn({
      all: async (stmt) => [{ result: stringifyJson(await this.call(stmt)) }],
      write: async () => {
        throw new PublicError(ErrorCode.BadUserInput, `http source "${this.name}" has no tables to write`);
      },
    });
  }

  async rows(): Promise<Row[]> {
    throw new PublicError(ErrorCode.BadUserInput, `http source "${this.name}" runs no SQL`);
  }

  async exec(): Promise<void> {
    throw new PublicError(ErrorCode.BadUserInput, `http source "${this.name}" runs no SQL`);
  }

  async close(): Promise<void> {}
}
