// The rows of a streamed DuckDB list answer what the same list answers read whole (issue 31): a row's
// text is DuckDB's JSON, and the list read whole is written as JSON.stringify writes the parsed value
// (`7` not `7.0`, `1e+21`, `\u001f`, a JSON column's last duplicate key), with a NaN or an infinity
// under Float null and a VALUE_NOT_REPRESENTABLE error at its path (src/pipeline/value-errors.ts).
// Parsing and re-writing every row would cost the 1,000,000-row answer a parse and a stringify per
// row, so only a row whose text holds something JSON.stringify may write differently is re-written
// (`mayDiffer`, a few substring searches);
// the others are the answer as they are (the same bytes). A row that does not complete to itself is
// completed by graphql-js's rules, its errors kept for the end of the document (streamed.ts).
import { type FieldNode, GraphQLError, locatedError } from 'graphql';
import { type FormatError, parseDbJson, stringifyJson } from '../shared/json.js';
import { complete, completesToItself } from './fast-path/complete.js';
import type { Out } from './fast-path/shape.js';

/**
 * Whether DuckDB's text of a row may be spelled otherwise by JSON.stringify: an escape (`\u001F`,
 * `\/`), a quoted non-finite double (finite-json.ts), and where the row holds numbers (a Float,
 * Int or BigInt field): an exponent (`1e21`, `1e-07`), a fraction with a trailing zero (`7.0`, `1.50`,
 * `-0.0`), below 10^-6 (a DECIMAL's `0.0000001` is `1e-7`), or of 16 digits or more (a DECIMAL
 * reads as the nearest double). Text inside strings may match too: such a row is only parsed. Written
 * with substring searches, not one regular expression: this runs on every row of the 1,000,000-row
 * answer (a regular expression over its text cost ~0.85 s, these searches ~0.17 s, measured).
 */
export function mayDiffer(text: string, numbers: boolean): boolean {
  if (text.includes('\\') && (text.includes('\\u') || text.includes('\\/'))) return true;
  if (text.includes('NaN"') || text.includes('Infinity"')) return true;
  return numbers && (fractional(text) || exponent(text));
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

function fractional(s: string): boolean {
  for (let at = s.indexOf('.'); at >= 0; at = s.indexOf('.', at + 1)) {
    if (!isDigit(s.charCodeAt(at - 1))) continue;
    let end = at + 1;
    while (isDigit(s.charCodeAt(end))) end++;
    if (end === at + 1) continue;
    if (s.charCodeAt(end - 1) === 48) return true;
    let start = at - 1;
    while (isDigit(s.charCodeAt(start - 1))) start--;
    if (end - start >= 16) return true;
    if (at - start === 1 && s.charCodeAt(start) === 48 && s.startsWith('000000', at + 1)) return true;
  }
  return false;
}

function exponent(s: string): boolean {
  for (const e of EXPONENT) for (let at = s.indexOf(e, 1); at >= 0; at = s.indexOf(e, at + 1)) if (isDigit(s.charCodeAt(at - 1))) return true;
  return false;
}
const EXPONENT = ['e', 'E'] as const;

/** Scalars whose DuckDB text `mayDiffer` covers: the built-ins and the flat catalog scalars. */
const PLAIN = new Set(['String', 'ID', 'Boolean', 'Int', 'Float', 'BigInt', 'Date', 'Time', 'Timestamp', 'DateTime', 'Interval']);

/** Whether some leaf of the shape passes `test` (`__typename` aside). */
function some(out: Out, test: (name: string) => boolean): boolean {
  switch (out.kind) {
    case 'non_null':
    case 'list':
      return some(out.of, test);
    case 'leaf':
      return test(out.type.name);
    case 'object':
      return out.fields.some((f) => f.typename === undefined && some(f.out, test));
  }
}

/** Scalars a DuckDB number is read into. */
const NUMBERS = new Set(['Float', 'Int', 'BigInt']);

/** A null that reached a non-null position: it goes up to the nearest nullable one. */
const NULLED = Symbol('nulled');

/** The rows of one streamed list, re-written where they would differ from the list read whole. */
export class StreamedRows {
  /**
   * Errors of the rows written so far (VALUE_NOT_REPRESENTABLE), in graphql-js's order, each as its
   * JSON text: one flat string per error, held until the list ends (a million NaN rows: ~150 MB).
   */
  readonly errors: string[] = [];
  /** Set when a null reached a non-null item: the list ends before that row (see `batch`). */
  ended = false;
  private index = 0;
  /** The request's error formatter, given with each batch (the response writer holds it). */
  private format: FormatError | undefined;
  /** Every row is parsed (a JSON, enum, geometry... field): its text is not checked. */
  private readonly always: boolean;
  /** The rows hold numbers (a Float field, or an Int or BigInt one declared by hand over a DOUBLE): their spelling is checked. */
  private readonly numbers: boolean;

  constructor(private readonly item: Out, private readonly path: readonly (string | number)[], private readonly nodes: readonly FieldNode[]) {
    this.always = some(item, (name) => !PLAIN.has(name));
    this.numbers = some(item, (name) => NUMBERS.has(name));
  }

  /**
   * The batch's rows as the answer writes them: the same array when no row changes. A non-null item
   * that would be null (a NaN in a `Float!`) made the whole list null, read whole; its first rows are
   * sent by then, so the list ends before that row, with the row's error (docs/http.md).
   */
  batch(rows: readonly unknown[], format: FormatError): readonly unknown[] {
    this.format = format;
    let out: unknown[] | undefined;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const text = typeof r === 'string' && (this.always || mayDiffer(r, this.numbers)) ? this.row(r) : r;
      if (text === NULLED) {
        this.ended = true;
        return (out ?? rows).slice(0, i);
      }
      this.index++;
      if (text !== r) out ??= rows.slice();
      if (out) out[i] = text;
    }
    return out ?? rows;
  }

  private row(text: string): string | typeof NULLED {
    const value = parseDbJson(text);
    try {
      if (completesToItself(this.item, value)) return stringifyJson(value);
      return stringifyJson(complete(this.item, value));
    } catch {
      // Where graphql-js reports an error (Incomplete, or a scalar's refusal): completed below, as it does.
    }
    const done = this.complete(this.item, value, [...this.path, this.index], this.nodes, undefined);
    return done === NULLED ? NULLED : stringifyJson(done);
  }

  /** graphql-js's completeValue, with each error kept as /query formats it (`format`). */
  private complete(out: Out, v: unknown, path: (string | number)[], nodes: readonly FieldNode[], field: string | undefined): unknown {
    switch (out.kind) {
      case 'non_null': {
        const done = this.complete(out.of, v, path, nodes, field);
        if (done === null) {
          // A null from the database (no error of its own yet) is graphql-js's error at this field.
          if (v === null || v === undefined) this.fail(new Error(`Cannot return null for non-nullable field ${field}.`), nodes, path);
          return NULLED;
        }
        return done;
      }
      case 'list': {
        if (v === null || v === undefined) return null;
        if (!Array.isArray(v)) return this.fail(new Error(`Expected Iterable, but did not find one for field "${field}".`), nodes, path);
        const items: unknown[] = [];
        for (let i = 0; i < v.length; i++) {
          const done = this.complete(out.of, v[i], [...path, i], nodes, field);
          // A non-null item that is null makes the list null (a non-null list: further up).
          if (done === NULLED) return null;
          items.push(done);
        }
        return items;
      }
      case 'leaf': {
        if (v === null || v === undefined) return null;
        try {
          const s = out.type.serialize(v);
          if (s === null || s === undefined) return this.fail(new Error(`Expected \`${out.type.name}.serialize\` to return non-nullable value`), nodes, path);
          return s;
        } catch (e) {
          return this.fail(e, nodes, path);
        }
      }
      case 'object': {
        if (v === null || v === undefined) return null;
        const row = v as Record<string, unknown>;
        const result: Record<string, unknown> = {};
        for (const f of out.fields) {
          if (f.typename !== undefined) {
            result[f.key] = f.typename;
            continue;
          }
          const x = row[f.key] === undefined ? row[f.name] : row[f.key];
          const done = this.complete(f.out, x, [...path, f.key], f.nodes ?? nodes, `${f.parent}.${f.name}`);
          // A non-null field that is null makes its object null (a non-null object: further up).
          if (done === NULLED) return null;
          result[f.key] = done;
        }
        return result;
      }
    }
  }

  /**
   * Keeps the error of the value at `path`, formatted as every /query error is (a refused value is
   * VALUE_NOT_REPRESENTABLE; anything else is masked, logged and given the request's id), and answers null there.
   */
  private fail(error: unknown, nodes: readonly FieldNode[], path: readonly (string | number)[]): null {
    const located = locatedError(error instanceof GraphQLError || error instanceof Error ? error : new Error(String(error)), nodes, path);
    this.errors.push(JSON.stringify(this.format!(located)));
    return null;
  }
}

/** The item shape of a root list's shape (`[T!]!` -> `T!`), or undefined for another shape. */
export function itemOf(out: Out): Out | undefined {
  const list = out.kind === 'non_null' ? out.of : out;
  return list.kind === 'list' ? list.of : undefined;
}
