// JSON from the database, read without losing integers beyond 2^53 (SPEC §3.4: BigInt values are
// exact). Such integers become BigInt values and are written back as bare digits.
import type { GraphQLError, GraphQLFormattedError } from 'graphql';

const MARK = '\u0000bigint:';

/**
 * Rewrites JSON text token by token outside its strings: `at` is asked at each character outside a
 * string and answers undefined (not a token of its own), or where the token it read ends and, to
 * replace it, its new text. Text with nothing replaced is returned as it was, without a copy.
 */
export function rewriteOutsideStrings(text: string, at: (text: string, i: number, ch: number) => { end: number; with?: string } | undefined): string {
  let out = '';
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92) i++; // backslash: skip the escaped character
      else if (ch === 34) inString = false;
      continue;
    }
    if (ch === 34) {
      inString = true;
      continue;
    }
    const token = at(text, i, ch);
    if (!token) continue;
    if (token.with !== undefined) {
      out += text.slice(last, i) + token.with;
      last = token.end;
    }
    i = token.end - 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

function digitsFrom(text: string, from: number): number {
  let k = from;
  while (k < text.length && text.charCodeAt(k) >= 48 && text.charCodeAt(k) <= 57) k++;
  return k;
}

/** Quotes integer literals that a double cannot hold exactly, marking them for the reviver. */
function markUnsafeIntegers(text: string): string {
  return rewriteOutsideStrings(text, (t, i, ch) => {
    if (ch !== 45 && (ch < 48 || ch > 57)) return undefined;
    // Read the whole number (integer part, fraction, exponent); only plain integers are marked.
    const intEnd = digitsFrom(t, i + 1);
    let j = intEnd;
    if (t[j] === '.') j = digitsFrom(t, j + 1);
    if (t[j] === 'e' || t[j] === 'E') j = digitsFrom(t, j + (t[j + 1] === '+' || t[j + 1] === '-' ? 2 : 1));
    const token = t.slice(i, intEnd);
    // Written as a JSON escape; JSON.parse turns it into MARK.
    if (j === intEnd && token.replace('-', '').length >= 16 && !Number.isSafeInteger(Number(token))) return { end: j, with: `"\\u0000bigint:${token}"` };
    return { end: j };
  });
}

const BIG = /\d{16,}/;

export function parseDbJson(text: string): unknown {
  if (!BIG.test(text)) return JSON.parse(text);
  const marked = markUnsafeIntegers(text);
  if (marked === text) return JSON.parse(text);
  return JSON.parse(marked, (_k, v: unknown) => (typeof v === 'string' && v.startsWith(MARK) ? BigInt(v.slice(MARK.length)) : v));
}

/**
 * JSON.stringify with each BigInt written as the string `mark + digits`; `found` tells whether any
 * was. A replacer function would visit every value; instead BigInt gets a toJSON for the duration
 * of this synchronous call only. `text` is undefined when `value` has no JSON form.
 */
export function stringifyMarkingBigInts(value: unknown, mark: string): { text: string | undefined; found: boolean } {
  const proto = BigInt.prototype as { toJSON?: () => string };
  const previous = proto.toJSON;
  if (!previous) {
    // Most values hold no BigInt: plain JSON.stringify, which throws a TypeError on the first one.
    // Changing BigInt.prototype on every call would also throw away V8's caches of its shape.
    try {
      return { text: JSON.stringify(value) as string | undefined, found: false };
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
    }
  }
  let found = false;
  proto.toJSON = function (this: bigint) {
    found = true;
    return `${mark}${this.toString()}`;
  };
  let text: string | undefined;
  try {
    text = JSON.stringify(value) as string | undefined;
  } finally {
    if (previous) proto.toJSON = previous;
    else delete proto.toJSON;
  }
  return { text, found };
}

/** JSON.stringify that writes BigInt values as exact JSON numbers. */
export function stringifyJson(value: unknown): string {
  const { text, found } = stringifyMarkingBigInts(value, MARK);
  return found ? text!.replace(/"\\u0000bigint:(-?\d+)"/g, '$1') : text!;
}

/**
 * A JSON document kept as the database wrote it, to be written into the response as it is (the
 * fast path, src/pipeline/fast-path/). Anything that needs the value parses it.
 */
export class RawJson {
  constructor(private readonly written: string) {}

  /** The JSON text (an answer written from rows writes it on first use, src/sql/rows/answer.ts). */
  get text(): string {
    return this.written;
  }

  parse(): unknown {
    return parseDbJson(this.text);
  }

  toJSON(): unknown {
    return this.parse();
  }
}

/** A streamed list's rows re-written where needed, with the errors met (src/pipeline/streamed-rows.ts). */
/** The one error formatter of /query (src/pipeline/graphql-server.ts formatOwnError), bound to a request. */
export type FormatError = (error: GraphQLError) => GraphQLFormattedError;

export interface RowCompletion {
  /** The rows as the answer writes them; `format` is the request's error formatter (src/pipeline/streamed-rows.ts). */
  batch(rows: readonly unknown[], format: FormatError): readonly unknown[];
  /** Each error's JSON text. */
  readonly errors: readonly string[];
  readonly ended: boolean;
}

/**
 * A root list whose rows are read only while the response is written (/query, STREAM_LIST_ROWS):
 * in the answer text it stands as a marker, a NUL-delimited id that no JSON text can contain
 * (JSON escapes U+0000 inside strings), which the response writer replaces by the rows.
 */
export class StreamedList extends RawJson {
  /**
   * How its rows are written as the list read whole would write them (src/pipeline/streamed-rows.ts),
   * set by the fast path that answers the list; without it the rows are written as they come.
   */
  completion?: RowCompletion;

  constructor(
    readonly id: number,
    /** The rows, a batch at a time: JSON text (as the database wrote it) or values to stringify. */
    readonly rows: () => AsyncGenerator<readonly unknown[]>,
    /** The list's response path (an error that ends it cleanly names it). */
    readonly path: readonly (string | number)[] = [],
  ) {
    super(`\u0000${id}\u0000`);
  }

  override parse(): never {
    throw new Error('a streamed list is read only while the response is written');
  }

  /** Every row, parsed (when the answer is completed by graphql-js after all). */
  async collect(): Promise<unknown[]> {
    const out: unknown[] = [];
    for await (const batch of this.rows()) for (const row of batch) out.push(typeof row === 'string' ? parseDbJson(row) : row);
    return out;
  }
}

/** A GraphQL response as text: `data` entries held as RawJson are spliced in unparsed. */
export function stringifyResponse(result: Readonly<Record<string, unknown>>): string {
  const data = result.data as Record<string, unknown> | null | undefined;
  if (!data) return stringifyJson(result);
  // Written with loops: this is every fast-path answer, and the entries arrays and closures were a
  // measurable share of a small request's allocation (issue 30). Same text as before.
  const keys = Object.keys(data);
  let raw = false;
  for (const k of keys) {
    if (data[k] instanceof RawJson) {
      raw = true;
      break;
    }
  }
  if (!raw) return stringifyJson(result);
  let dataText = '{';
  for (let i = 0; i < keys.length; i++) dataText += `${i ? ',' : ''}${entryText(keys[i]!, data[keys[i]!])}`;
  dataText += '}';
  let out = '';
  for (const k of Object.keys(result)) {
    const v = result[k];
    if (v === undefined) continue;
    out += `${out ? ',' : '{'}${k === 'data' ? `"data":${dataText}` : entryText(k, v)}`;
  }
  return `${out || '{'}}`;
}

/** `"key":value` of a response entry; RawJson is spliced as its text. */
function entryText(k: string, v: unknown): string {
  return `${JSON.stringify(k)}:${v instanceof RawJson ? v.text : stringifyJson(v ?? null)}`;
}
