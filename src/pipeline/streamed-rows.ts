// The rows of a streamed DuckDB list answer what the same list answers read whole (issue 31): a row's
// text is DuckDB's JSON, and the list read whole is written as JSON.stringify writes the parsed value
// (`7` not `7.0`, `1e+21`, `\u001f`, a JSON column's last duplicate key), with a NaN or an infinity
// under Float null and a VALUE_NOT_REPRESENTABLE error at its path (src/pipeline/value-errors.ts).
// Parsing and re-writing every row would cost the 1,000,000-row answer a parse and a stringify per
// row, so only a row whose text holds something JSON.stringify may write differently is re-written;
// the others are the answer as they are (the same bytes). A row that does not complete to itself is
// completed by graphql-js's rules, its errors kept for the end of the document (streamed.ts).
import { type FieldNode, type GraphQLFormattedError, GraphQLError, locatedError } from 'graphql';
import { ErrorCode } from '../shared/errors.js';
import { parseDbJson, stringifyJson } from '../shared/json.js';
import { complete, completesToItself } from './fast-path/complete.js';
import type { Out } from './fast-path/shape.js';
import { valueNotRepresentable } from './value-errors.js';

/**
 * Text DuckDB writes that JSON.stringify may write otherwise: an escape (`\u001F`, `\/`), a quoted
 * non-finite double (finite-json.ts), a number with a trailing fractional zero (`7.0`, `1.50`,
 * `-0.0`), an exponent (`1e21`, `1e-07`), a fraction below 10^-6 (a DECIMAL's `0.0000001` is
 * `1e-7`), or 16 or more digits (a DECIMAL served as Float reads as the nearest double). Matching
 * inside a string too is harmless: such a row is only parsed.
 */
export const MAY_DIFFER = /\\[u/]|"(?:-?Infinity|NaN)"|\.\d*0(?!\d)|\d[eE]|\.0{6}|[\d.]{16}/;

/** Scalars whose DuckDB text the pattern above covers: the built-ins and the flat catalog scalars. */
const PLAIN = new Set(['String', 'ID', 'Boolean', 'Int', 'Float', 'BigInt', 'Date', 'Time', 'Timestamp', 'DateTime', 'Interval']);

/** Whether every leaf of the shape is a plain scalar (else every row is parsed: JSON, enums, geometry...). */
function plain(out: Out): boolean {
  switch (out.kind) {
    case 'non_null':
    case 'list':
      return plain(out.of);
    case 'leaf':
      return PLAIN.has(out.type.name);
    case 'object':
      return out.fields.every((f) => f.typename !== undefined || plain(f.out));
  }
}

/** A null that reached a non-null position: it goes up to the nearest nullable one. */
const NULLED = Symbol('nulled');

/** The rows of one streamed list, re-written where they would differ from the list read whole. */
export class StreamedRows {
  /** Errors of the rows written so far (VALUE_NOT_REPRESENTABLE), in graphql-js's order. */
  readonly errors: GraphQLFormattedError[] = [];
  /** Set when a null reached a non-null item: the list ends before that row (see `batch`). */
  ended = false;
  private index = 0;
  private readonly always: boolean;

  constructor(private readonly item: Out, private readonly path: readonly (string | number)[], private readonly nodes: readonly FieldNode[]) {
    this.always = !plain(item);
  }

  /**
   * The batch's rows as the answer writes them: the same array when no row changes. A non-null item
   * that would be null (a NaN in a `Float!`) made the whole list null, read whole; its first rows are
   * sent by then, so the list ends before that row, with the row's error (docs/http.md).
   */
  batch(rows: readonly unknown[]): readonly unknown[] {
    let out: unknown[] | undefined;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const text = typeof r === 'string' && (this.always || MAY_DIFFER.test(r)) ? this.row(r) : r;
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

  /** graphql-js's completeValue, with each error kept as Apollo formats it (graphql-server.ts formatError). */
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

  /** Keeps the error of the value at `path` and answers null there. */
  private fail(error: unknown, nodes: readonly FieldNode[], path: readonly (string | number)[]): null {
    const located = locatedError(error instanceof GraphQLError || error instanceof Error ? error : new Error(String(error)), nodes, path).toJSON();
    const formatted = { ...located, extensions: { ...located.extensions, code: ErrorCode.Internal } };
    this.errors.push(valueNotRepresentable(formatted) ?? { ...formatted, message: 'internal server error' });
    return null;
  }
}

/** The item shape of a root list's shape (`[T!]!` -> `T!`), or undefined for another shape. */
export function itemOf(out: Out): Out | undefined {
  const list = out.kind === 'non_null' ? out.of : out;
  return list.kind === 'list' ? list.of : undefined;
}
