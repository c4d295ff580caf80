// Views of an http source in hugr's form: `@view(sql: "SELECT ... UNNEST(json_transform(
// http_data_source_request_scalar('[$catalog]', '/devices', 'POST', ...)::JSON, '[{...}]')) ...")`.
// hugr runs that SQL in an in-memory DuckDB where the request is a scalar function; svc sends each
// request from the server first and hands DuckDB its answer as a parameter in the call's place, so
// everything around the call (UNNEST, json_transform, filters, aggregations, @sql fields) runs in the
// embedded DuckDB as it would in hugr. A call must therefore have constant arguments: one whose
// arguments read the query's own rows (`{deviceIds: devices.ids}::JSON`) is refused at load.
import type { DataObject } from '../../catalog/model.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { stringifyJson } from '../../shared/json.js';
import type { CompiledSql } from '../../sql/compiler.js';
import type { RawRequest } from './request.js';
import { argsOf, evaluate, findRequestCalls, pathLabel, placeOf, type RequestCall, RequestSqlError, type SqlValue } from './request-sql.js';

const own = (source: string, v: SqlValue) => v.kind === 'catalog' || (v.kind === 'lit' && (v.value === source || v.value === ''));

/** Load-time check of every data object of an http source: views whose requests svc can send. */
export function checkViews(source: string, objects: readonly DataObject[]): void {
  for (const obj of objects) {
    const at = (offset: number) => placeOf(obj.loc, obj.sql ?? '', offset);
    if (obj.kind !== 'view' || obj.sql === undefined) {
      throw new PublicError(ErrorCode.CatalogInvalid, `http source "${source}": "${obj.localName}" (${obj.loc.file}:${obj.loc.line}) is a table; an http source serves functions and @view(sql:) views over its requests`);
    }
    let calls: RequestCall[];
    try {
      calls = findRequestCalls(obj.sql);
    } catch (e) {
      if (e instanceof RequestSqlError) throw new PublicError(ErrorCode.CatalogInvalid, `http source "${source}": view "${obj.localName}" (${at(e.at)}): ${e.message}`);
      throw e;
    }
    for (const call of calls) {
      const refuse = (msg: string): never => {
        throw new PublicError(ErrorCode.CatalogInvalid, `http source "${source}": view "${obj.localName}" (${at(call.start)}): ${msg}`);
      };
      if (!own(source, call.source)) refuse(`the first argument must be '[$catalog]' (this source)`);
      for (const v of [call.path, call.method, call.headers, call.params, call.body, call.jq]) {
        if (argsOf(v).length) refuse(`the request's arguments must be constants: svc sends it before the view's SQL runs, so it cannot read the view's rows or arguments`);
      }
      if (call.method.kind !== 'lit' || call.jq.kind !== 'lit') refuse('the method and the jq program must be string literals');
    }
  }
}

/** The request a (load-checked) call of a view sends. */
export function viewRequest(call: RequestCall, what: string): RawRequest {
  const value = (v: SqlValue) => evaluate(v, {}, what);
  return {
    method: String(value(call.method)),
    path: String(value(call.path) ?? ''),
    headers: value(call.headers),
    params: value(call.params),
    body: value(call.body),
    jq: String(value(call.jq) ?? ''),
  };
}

/**
 * The statement with each request call replaced by a parameter holding its answer (JSON text).
 * Equal calls in one statement are sent once.
 */
export async function inlineRequests(stmt: CompiledSql, send: (r: RawRequest, label: string) => Promise<unknown>): Promise<CompiledSql> {
  const calls = findRequestCalls(stmt.sql);
  if (!calls.length) return stmt;
  const params = [...stmt.params];
  const byText = new Map<string, number>();
  let sql = '';
  let last = 0;
  for (const call of calls) {
    const text = stmt.sql.slice(call.start, call.end);
    let index = byText.get(text);
    if (index === undefined) {
      const r = viewRequest(call, 'view request');
      const answer = await send(r, `${r.method.toUpperCase()} ${pathLabel(call.path)}`);
      params.push(stringifyJson(answer ?? null));
      index = params.length;
      byText.set(text, index);
    }
    sql += `${stmt.sql.slice(last, call.start)}CAST($${index} AS JSON)`;
    last = call.end;
  }
  return { ...stmt, sql: sql + stmt.sql.slice(last), params };
}
