// Writes one /ipc answer (SPEC §13): a part per result path — lists as Arrow IPC streams, read
// from their cursors a batch at a time; objects and scalars as JSON — then extensions and errors.
import { getNullableType, isListType } from 'graphql';
import type { RowStream } from '../../executor/request-context.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { stringifyJson } from '../../shared/json.js';
import type { Logger } from '../../shared/logger.js';
import type { Fragments } from './arrow.js';
import type { PartSink } from './multipart.js';
import type { ResultPart } from './parts.js';

export interface GraphqlAnswer {
  readonly data?: Record<string, unknown> | null;
  readonly errors?: readonly Record<string, unknown>[];
  readonly extensions?: Record<string, unknown>;
}

/** Rows of a list held in memory (not streamed) go out in batches of this many. */
const BATCH = 10_000;

/** Lets I/O and timers waiting behind this answer run (setImmediate: after the poll phase). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function valueAt(data: unknown, path: readonly string[]): unknown {
  let v = data;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v ?? null;
}

/** An error met while streaming, shaped as GraphQL errors are; internal faults are logged, not shown. */
function streamError(e: unknown, path: readonly string[], log: Logger): Record<string, unknown> {
  if (e instanceof PublicError) return { message: e.message, path, extensions: { code: e.code } };
  log.error({ err: e, path: path.join('.') }, 'ipc: streaming a result failed');
  return { message: 'internal server error', path, extensions: { code: ErrorCode.Internal } };
}

// The Arrow writer (and apache-arrow under it) is loaded when the first Arrow answer is written, not
// at start: most servers never answer in Arrow, and apache-arrow is ~0.7 MB of code held in memory.
let arrowWriter: Promise<typeof import('./arrow.js')> | undefined;

export async function writeAnswer(
  out: PartSink, answer: GraphqlAnswer, parts: readonly ResultPart[], streams: ReadonlyMap<string, RowStream>, fragments: Fragments, log: Logger,
): Promise<void> {
  const errors = [...(answer.errors ?? [])];
  for (const part of parts) {
    if (out.closed) return;
    const key = part.path.join('.');
    const path = `data.${key}`;
    const stream = streams.get(key);
    const value = valueAt(answer.data, part.path);
    const list = isListType(getNullableType(part.type));
    // A list is a table, unless its root field failed (null) and nothing was streamed.
    if (!list || (value === null && !stream)) {
      await out.object(path, stringifyJson(value));
      continue;
    }
    const { ArrowStream, listColumns } = await (arrowWriter ??= import('./arrow.js'));
    const columns = listColumns(part.type, part.selection, fragments);
    const arrow = new ArrowStream(columns, !(columns.length === 1 && columns[0]!.name === 'value' && !part.selection));
    await out.table(path);
    if (stream?.errors) errors.push(...stream.errors);
    try {
      if (stream) {
        for await (const rows of stream.rows()) {
          for (const chunk of arrow.batch(rows)) await out.write(chunk);
          // Leaving the loop ends the generator, which ends the statement.
          if (out.closed) break;
        }
      } else {
        const rows = value as unknown[];
        for (let i = 0; i < rows.length && !out.closed; i += BATCH) {
          // A socket that takes every chunk at once (a fast reader on loopback) never makes `write`
          // wait: without a turn of the event loop between batches, a 1,000,000-row answer would hold
          // it for the seconds its 100 batches take, and every other request with it (issue 31).
          if (i > 0) await nextTurn();
          for (const chunk of arrow.batch(rows.slice(i, i + BATCH))) await out.write(chunk);
        }
      }
    } catch (e) {
      // The part stays a valid (shorter) Arrow stream; the error is reported in the errors part.
      errors.push(streamError(e, part.path, log));
    }
    for (const chunk of arrow.finish()) await out.write(chunk);
    await out.endTable(path);
  }
  await out.extensions(stringifyJson(answer.extensions ?? {}));
  if (errors.length) await out.errors(stringifyJson(errors));
  out.close();
}
