// hugr's form of an http function or view (docs/http-sources.md "hugr's form"): catalog SQL calling
// `http_data_source_request_scalar(source, path, method, headers, parameters, body, jq)`. hugr runs
// that SQL in DuckDB; svc sends the request from Node, so it reads the argument shapes hugr's
// documentation and its OpenAPI generator write, exactly, and refuses anything else at load with the
// function's file and line: string literals (`'/path'`, `'{}'::JSON`), struct literals
// (`{lat: [lat], units: 'metric'}::JSON`), argument placeholders (`[name]`), `||` concatenation
// (`'/users/'||[id]`), `COALESCE(a, b)`, `ST_AsGeoJSON([geom])`, numbers, TRUE/FALSE/NULL and casts.
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { parseDbJson } from '../../shared/json.js';

export const REQUEST_FUNCTION = 'http_data_source_request_scalar';

export type SqlValue =
  | { readonly kind: 'lit'; readonly value: unknown }
  | { readonly kind: 'arg'; readonly name: string }
  | { readonly kind: 'catalog' }
  | { readonly kind: 'struct'; readonly fields: readonly (readonly [string, SqlValue])[] }
  | { readonly kind: 'concat'; readonly items: readonly SqlValue[] }
  | { readonly kind: 'coalesce'; readonly items: readonly SqlValue[] }
  | { readonly kind: 'geojson'; readonly value: SqlValue }
  | { readonly kind: 'json'; readonly value: SqlValue };

/** One call: its seven arguments, and where it sits in the text (`start` at its name, `end` after `)`). */
export interface RequestCall {
  readonly source: SqlValue;
  readonly path: SqlValue;
  readonly method: SqlValue;
  readonly headers: SqlValue;
  readonly params: SqlValue;
  readonly body: SqlValue;
  readonly jq: SqlValue;
  readonly start: number;
  readonly end: number;
}

/** A shape svc does not read; `at` is the offset in the SQL text. */
export class RequestSqlError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}

  skip(): void {
    for (;;) {
      while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
      if (this.s.startsWith('--', this.i)) {
        while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
        continue;
      }
      return;
    }
  }

  peek(text: string): boolean {
    this.skip();
    return this.s.startsWith(text, this.i);
  }

  eat(text: string): void {
    if (!this.peek(text)) throw new RequestSqlError(`expected "${text}" at "${this.s.slice(this.i, this.i + 20)}"`, this.i);
    this.i += text.length;
  }

  word(): string | undefined {
    this.skip();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i));
    if (!m) return undefined;
    this.i += m[0].length;
    return m[0];
  }

  quoted(q: "'" | '"'): string {
    this.eat(q);
    let out = '';
    for (;;) {
      const j = this.s.indexOf(q, this.i);
      if (j < 0) throw new RequestSqlError('unterminated string', this.i);
      out += this.s.slice(this.i, j);
      this.i = j + 1;
      if (this.s[this.i] === q) {
        out += q;
        this.i++;
        continue;
      }
      return out;
    }
  }
}

function primary(r: Reader): SqlValue {
  r.skip();
  const c = r.s[r.i];
  const at = r.i;
  if (c === "'") {
    const text = r.quoted("'");
    return text === '[$catalog]' ? { kind: 'catalog' } : { kind: 'lit', value: text };
  }
  if (c === '(') {
    r.eat('(');
    const v = expr(r);
    r.eat(')');
    return v;
  }
  if (c === '{') {
    r.eat('{');
    const fields: [string, SqlValue][] = [];
    while (!r.peek('}')) {
      r.skip();
      const key = r.s[r.i] === "'" || r.s[r.i] === '"' ? r.quoted(r.s[r.i] as "'" | '"') : r.word();
      if (key === undefined) throw new RequestSqlError('a struct key must be a name or a quoted string', r.i);
      r.eat(':');
      fields.push([key, expr(r)]);
      if (!r.peek(',')) break;
      r.eat(',');
    }
    r.eat('}');
    return { kind: 'struct', fields };
  }
  if (c === '[') {
    const m = /^\[(\$?)([A-Za-z_][A-Za-z0-9_]*)\]/.exec(r.s.slice(r.i));
    if (!m) throw new RequestSqlError('a placeholder is [argument] or [$catalog]', at);
    r.i += m[0].length;
    if (m[1]) {
      if (m[2] !== 'catalog') throw new RequestSqlError(`[$${m[2]}] is not read in an http request (only [$catalog] and [argument])`, at);
      return { kind: 'catalog' };
    }
    return { kind: 'arg', name: m[2]! };
  }
  const num = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(r.s.slice(r.i));
  if (num) {
    r.i += num[0].length;
    return { kind: 'lit', value: Number(num[0]) };
  }
  const w = r.word();
  if (w === undefined) throw new RequestSqlError(`unexpected "${r.s.slice(at, at + 20)}"`, at);
  const upper = w.toUpperCase();
  if (upper === 'NULL') return { kind: 'lit', value: null };
  if (upper === 'TRUE' || upper === 'FALSE') return { kind: 'lit', value: upper === 'TRUE' };
  if (upper === 'COALESCE' || upper === 'ST_ASGEOJSON') {
    r.eat('(');
    const items = [expr(r)];
    while (r.peek(',')) {
      r.eat(',');
      items.push(expr(r));
    }
    r.eat(')');
    if (upper === 'COALESCE') return { kind: 'coalesce', items };
    if (items.length !== 1) throw new RequestSqlError('ST_AsGeoJSON takes one argument', at);
    return { kind: 'geojson', value: items[0]! };
  }
  throw new RequestSqlError(`"${w}" is not read in an http request: svc sends the request from the server before any SQL runs, so its arguments are constants, {key: [argument]} structs, [argument], || and COALESCE`, at);
}

function cast(r: Reader, v: SqlValue): SqlValue {
  let out = v;
  while (r.peek('::')) {
    r.eat('::');
    const t = r.word();
    if (t === undefined) throw new RequestSqlError('a cast names a type', r.i);
    if (r.peek('[]')) r.eat('[]');
    if (t.toUpperCase() === 'JSON') out = { kind: 'json', value: out };
    else if (!['VARCHAR', 'TEXT', 'STRING', 'INTEGER', 'BIGINT', 'DOUBLE', 'FLOAT', 'BOOLEAN'].includes(t.toUpperCase())) throw new RequestSqlError(`cast to ${t} is not read in an http request`, r.i);
  }
  return out;
}

function expr(r: Reader): SqlValue {
  const items = [cast(r, primary(r))];
  while (r.peek('||')) {
    r.eat('||');
    items.push(cast(r, primary(r)));
  }
  return items.length === 1 ? items[0]! : { kind: 'concat', items };
}

/** The call starting at `start` (the function's name); its end is after the closing parenthesis. */
export function parseRequestCall(text: string, start: number): RequestCall {
  const r = new Reader(text);
  r.i = start;
  r.eat(REQUEST_FUNCTION);
  r.eat('(');
  const args: SqlValue[] = [];
  // `[$catalog]` written bare arrives in view SQL as nothing (the planner writes an http source's
  // namespace, which is empty): an empty first argument is the source itself.
  if (r.peek(',')) args.push({ kind: 'catalog' });
  else args.push(expr(r));
  while (r.peek(',')) {
    r.eat(',');
    args.push(expr(r));
  }
  r.eat(')');
  if (args.length !== 7) throw new RequestSqlError(`${REQUEST_FUNCTION} takes 7 arguments (source, path, method, headers, parameters, body, jq), not ${args.length}`, start);
  const [source, path, method, headers, params, body, jq] = args as [SqlValue, SqlValue, SqlValue, SqlValue, SqlValue, SqlValue, SqlValue];
  return { source, path, method, headers, params, body, jq, start, end: r.i };
}

/** Every call in `text`, in order (a string literal that merely contains the name is not a call). */
export function findRequestCalls(text: string): RequestCall[] {
  const calls: RequestCall[] = [];
  const re = new RegExp(`\\b${REQUEST_FUNCTION}\\s*\\(|'(?:[^']|'')*'`, 'gi');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].startsWith("'")) continue;
    const call = parseRequestCall(text, m.index);
    calls.push(call);
    re.lastIndex = call.end;
  }
  return calls;
}

/** The whole text is one call, optionally as `SELECT <call>`; anything around it is refused. */
export function parseFunctionSql(text: string): RequestCall {
  const r = new Reader(text);
  r.skip();
  const m = /^select\s+/i.exec(text.slice(r.i));
  if (m) r.i += m[0].length;
  r.skip();
  if (!text.slice(r.i).toLowerCase().startsWith(REQUEST_FUNCTION)) throw new RequestSqlError(`the sql of a function on an http source is one ${REQUEST_FUNCTION}(...) call`, r.i);
  const call = parseRequestCall(text, r.i);
  const rest = new Reader(text);
  rest.i = call.end;
  const after = cast(rest, { kind: 'lit', value: null });
  void after;
  rest.skip();
  if (rest.i < text.length) throw new RequestSqlError(`nothing may follow the ${REQUEST_FUNCTION}(...) call of a function on an http source`, rest.i);
  return call;
}

/**
 * Where offset `at` of a catalog object's sql is: the object's file and line, and the line within
 * its sql when that has several (a block string's value is dedented, so file lines are not known).
 */
export function placeOf(loc: { readonly file: string; readonly line: number }, text: string, at: number): string {
  const n = (text.slice(0, at).match(/\n/g)?.length ?? 0) + 1;
  return `${loc.file}:${loc.line}${text.includes('\n') ? `, line ${n} of its sql` : ''}`;
}

/** Names of the `[argument]` placeholders a value reads. */
export function argsOf(v: SqlValue): string[] {
  switch (v.kind) {
    case 'arg': return [v.name];
    case 'struct': return v.fields.flatMap(([, f]) => argsOf(f));
    case 'concat':
    case 'coalesce': return v.items.flatMap(argsOf);
    case 'geojson':
    case 'json': return argsOf(v.value);
    default: return [];
  }
}

/** The value for the given arguments (SQL semantics: a NULL in `||` is NULL). */
export function evaluate(v: SqlValue, args: Readonly<Record<string, unknown>>, what: string): unknown {
  switch (v.kind) {
    case 'lit': return v.value;
    case 'catalog': return null;
    case 'arg': return args[v.name] ?? null;
    case 'struct': return Object.fromEntries(v.fields.map(([k, f]) => [k, evaluate(f, args, what)]));
    case 'concat': {
      const parts = v.items.map((x) => evaluate(x, args, what));
      if (parts.some((p) => p === null || p === undefined)) return null;
      return parts.map((p) => (typeof p === 'object' ? JSON.stringify(p) : String(p))).join('');
    }
    case 'coalesce': {
      for (const x of v.items) {
        const e = evaluate(x, args, what);
        if (e !== null && e !== undefined) return e;
      }
      return null;
    }
    case 'geojson': {
      const g = evaluate(v.value, args, what);
      return typeof g === 'string' || g === null ? g : JSON.stringify(g);
    }
    case 'json': {
      const inner = evaluate(v.value, args, what);
      if (typeof inner !== 'string') return inner;
      try {
        return parseDbJson(inner);
      } catch {
        throw new PublicError(ErrorCode.BadUserInput, `${what}: a value cast to JSON is not JSON text`);
      }
    }
  }
}

/** The path template as messages show it: `[id]` written as `{id}`. */
export function pathLabel(v: SqlValue): string {
  switch (v.kind) {
    case 'lit': return String(v.value ?? '');
    case 'arg': return `{${v.name}}`;
    case 'concat': return v.items.map(pathLabel).join('');
    case 'json':
    case 'geojson': return pathLabel(v.value);
    default: return '{?}';
  }
}
