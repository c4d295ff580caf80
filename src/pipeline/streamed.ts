// Large root lists of /query written row by row (issue 30: a 1,000,000-row answer must not be held
// whole). A root list asked with a `limit` above STREAM_LIST_ROWS, answered by the fast path, is
// not read when its resolver runs: it stands in the answer as a StreamedList marker, and the
// response writer reads its rows from a cursor while it writes them, a batch at a time, waiting for
// the socket. The answer is the same text: each row's JSON is what the whole list's would hold.
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../executor/request-context.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { type FormatError, StreamedList, stringifyJson } from '../shared/json.js';

/**
 * Whether a root list field is streamed rather than read whole: only where nothing else needs its
 * value (no directive on the field, no catalog cache on its object) and the fast path writes the
 * answer (graphql-js would complete the whole list in memory anyway).
 */
export function streamsRootList(ctx: RequestContext, info: GraphQLResolveInfo, limit: unknown, cached: boolean): boolean {
  return ctx.rawJson && ctx.streamAbove !== undefined && ctx.streamAbove > 0 && typeof limit === 'number' && limit > ctx.streamAbove
    && !cached && info.path.prev === undefined && !info.fieldNodes.some((n) => n.directives?.length);
}

/** Registers the rows of a streamed list on the request and returns its marker. */
export function streamedList(ctx: RequestContext, rows: () => AsyncGenerator<readonly unknown[]>, path: readonly (string | number)[]): StreamedList {
  const list = new StreamedList(ctx.streamed.length, rows, path);
  ctx.streamed.push(list);
  return list;
}

/**
 * The response body: the answer text with each marker replaced by its list, `[` rows `]`. A failure
 * half-way cannot be answered any more (the status and the first rows are sent): the error ends the
 * stream, and the connection is closed without the end of the JSON, so no client reads it as whole.
 * Crossing MAX_RESPONSE_ROWS / MAX_RESPONSE_BYTES is the exception (issue 31): the list ends there,
 * the document is completed, and an `errors` entry RESPONSE_TOO_LARGE at the list's path says that
 * the list is incomplete. A value a row's field cannot carry (a NaN under Float, streamed-rows.ts) is
 * null with its error, as read whole. The fast path answered every other field, so these errors are
 * all the document has: they are written after `data`, its last member.
 */
export async function* streamedBody(text: string, lists: readonly StreamedList[], format: FormatError): AsyncGenerator<string> {
  const errors: string[] = [];
  let at = 0;
  for (;;) {
    const start = text.indexOf('\u0000', at);
    if (start < 0) break;
    const end = text.indexOf('\u0000', start + 1);
    const list = lists[Number(text.slice(start + 1, end))];
    if (!list) throw new Error('unknown streamed list in the answer');
    yield `${text.slice(at, start)}[`;
    let first = true;
    let tooLarge: string | undefined;
    try {
      const completion = list.completion;
      for await (const batch of list.rows()) {
        // Rows from the database as text are the answer's where the list read whole writes the same
        // bytes (streamed-rows.ts re-writes the others); values (PostgreSQL's parsed rows) are written as the list would be.
        for (const piece of pieces(completion ? completion.batch(batch, format) : batch)) {
          yield first ? piece : `,${piece}`;
          first = false;
        }
        if (completion?.ended) break;
      }
    } catch (e) {
      if (!(e instanceof PublicError && e.code === ErrorCode.ResponseTooLarge) || text.startsWith('{"errors"')) throw e;
      tooLarge = JSON.stringify({ message: e.message, path: list.path, extensions: { code: e.code } });
    }
    // The rows' value errors, in the order graphql-js meets them, then the cut that ended the list.
    if (list.completion) for (const e of list.completion.errors) errors.push(e);
    if (tooLarge) errors.push(tooLarge);
    yield ']';
    at = end + 1;
  }
  const tail = text.slice(at);
  if (!errors.length) return yield tail;
  // The answer ends with its closing brace: the errors go in before it, in pieces as the rows are.
  yield `${tail.slice(0, tail.lastIndexOf('}'))},"errors":[`;
  let first = true;
  for (const piece of pieces(errors)) {
    yield first ? piece : `,${piece}`;
    first = false;
  }
  yield ']}';
}

/**
 * A batch's rows as text, joined in pieces of about PIECE characters. A whole batch joined (2,048
 * DuckDB rows, ~250 KB for the 1,000,000-row bench list) is a string above V8's largest young
 * object: each went to the large-object space, which only a full collection frees, and the heap grew
 * by the size of the answer before one ran (issue 30: 110 -> 310 MB during a 122 MB answer).
 * Pieces this small die young, freed by the next scavenge once the socket has taken them.
 */
function* pieces(batch: readonly unknown[]): Generator<string> {
  const parts: string[] = [];
  let size = 0;
  for (const r of batch) {
    const text = typeof r === 'string' ? r : stringifyJson(r);
    parts.push(text);
    size += text.length + 1;
    if (size >= PIECE) {
      yield parts.join(',');
      parts.length = 0;
      size = 0;
    }
  }
  if (parts.length) yield parts.join(',');
}

/** Characters per written piece: well below V8's largest young object (128 KB), large enough that a write's fixed cost does not count. */
const PIECE = 32 * 1024;
