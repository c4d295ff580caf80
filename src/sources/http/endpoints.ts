// Catalog functions of an http source -> REST endpoints. A function's `@function(name:)` is either
// `"METHOD /path/{arg}"` or, with an OpenAPI document (`x-svc-spec-uri`), an operationId. Arguments
// go where the document says (path, query, header, body); without one, `{arg}` in the path takes the
// argument of that name, and the others go to the query string (GET, DELETE) or to a JSON body
// (POST, PUT, PATCH); an argument named `body` is the whole body.
import type { CatalogFunction } from '../../catalog/model.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { OpenApiDocument, OpenApiOperation } from './openapi.js';
import { argsOf, parseFunctionSql, placeOf, pathLabel, type RequestCall, RequestSqlError, type SqlValue } from './request-sql.js';

export type ParamPlace = 'path' | 'query' | 'header' | 'body' | 'whole_body';

export interface Endpoint {
  readonly fn: CatalogFunction;
  readonly method: string;
  /** Path template below the base URL, `{name}` for path parameters. */
  readonly path: string;
  /** Where each argument goes, and under which name. */
  readonly params: readonly { readonly arg: string; readonly place: ParamPlace; readonly wire: string }[];
  /** hugr's form: the function's `sql` is an http_data_source_request_scalar call (request-sql.ts). */
  readonly request?: RequestCall;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Idempotent requests may be sent again after a timeout or a transient answer. */
export function idempotent(method: string): boolean {
  return method !== 'POST' && method !== 'PATCH';
}

function where(fn: CatalogFunction): string {
  return `function "${fn.name}" (${fn.loc.file}:${fn.loc.line})`;
}

/**
 * hugr's form: `sql: "http_data_source_request_scalar([$catalog], '/path', 'GET', headers::JSON,
 * params::JSON, body::JSON, 'jq')"`. The method must be a literal, the source this one, and every
 * `[name]` an argument of the function; a shape svc cannot send is refused with its line.
 */
function sqlEndpoint(source: string, fn: CatalogFunction): Endpoint {
  const sql = fn.sql!;
  const refuse = (msg: string, at: number): never => {
    throw new PublicError(ErrorCode.CatalogInvalid, `http source "${source}": function "${fn.name}" (${placeOf(fn.loc, sql, at)}): ${msg}`);
  };
  let call: RequestCall;
  try {
    call = parseFunctionSql(sql);
  } catch (e) {
    if (e instanceof RequestSqlError) return refuse(e.message, e.at);
    throw e;
  }
  const own = (v: SqlValue) => v.kind === 'catalog' || (v.kind === 'lit' && (v.value === source || v.value === ''));
  if (!own(call.source)) refuse(`the first argument must be [$catalog] (this source); an http function calls its own source`, call.start);
  if (call.method.kind !== 'lit' || typeof call.method.value !== 'string' || !METHODS.has(call.method.value.toUpperCase())) refuse(`the method must be a literal GET, POST, PUT, PATCH, DELETE or HEAD`, call.start);
  if (call.jq.kind !== 'lit' || (call.jq.value !== null && typeof call.jq.value !== 'string')) refuse(`the jq argument must be a string literal`, call.start);
  const known = new Set(fn.args.map((a) => a.name));
  for (const v of [call.path, call.headers, call.params, call.body]) {
    for (const name of argsOf(v)) if (!known.has(name)) refuse(`[${name}] is not an argument of the function`, call.start);
  }
  const method = String((call.method as { value: string }).value).toUpperCase();
  return { fn, method, path: pathLabel(call.path), params: [], request: call };
}

export function endpointOf(source: string, fn: CatalogFunction, spec: OpenApiDocument | undefined): Endpoint {
  if (fn.sql !== undefined) return sqlEndpoint(source, fn);
  const m = /^([A-Za-z]+)\s+(\/\S*)$/.exec(fn.dbName.trim());
  let method: string;
  let path: string;
  let op: OpenApiOperation | undefined;
  if (m) {
    method = m[1]!.toUpperCase();
    path = m[2]!;
    op = spec?.byPath.get(`${method} ${path}`);
  } else {
    op = spec?.byId.get(fn.dbName);
    if (!op) {
      const hint = spec ? `no operation "${fn.dbName}" in the OpenAPI document` : 'write @function(name: "GET /path/{arg}"), or give an OpenAPI document (x-svc-spec-uri) and name an operationId';
      throw new PublicError(ErrorCode.CatalogInvalid, `http source "${source}": ${where(fn)}: ${hint}`);
    }
    method = op.method;
    path = op.path;
  }
  if (!METHODS.has(method)) throw new PublicError(ErrorCode.CatalogInvalid, `http source "${source}": ${where(fn)}: unknown method "${method}"`);
  const inPath = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]!));
  const params = fn.args.map((a) => {
    const declared = op?.params.get(a.name);
    if (declared) return { arg: a.name, place: declared as ParamPlace, wire: a.name };
    if (inPath.has(a.name)) return { arg: a.name, place: 'path' as const, wire: a.name };
    if (a.name === 'body' && BODY_METHODS.has(method)) return { arg: a.name, place: 'whole_body' as const, wire: a.name };
    return { arg: a.name, place: (BODY_METHODS.has(method) && (op ? op.hasBody : true) ? 'body' : 'query') as ParamPlace, wire: a.name };
  });
  for (const name of inPath) {
    if (!params.some((p) => p.place === 'path' && p.wire === name)) throw new PublicError(ErrorCode.CatalogInvalid, `http source "${source}": ${where(fn)}: path parameter {${name}} is not an argument of the function`);
  }
  return { fn, method, path, params };
}
