// How a streamed DuckDB result is read (DuckDbSource.streamRows): the driver's rows a chunk at a
// time, or, for /query's streamed lists, the rows' JSON text in batches of about one written piece.
import type { DuckDBResult } from '@duckdb/node-api';

/** Reads a streaming result into the batches its reader yields. */
export type ResultReader<T> = (result: DuckDBResult) => AsyncGenerator<T[]>;

/** The first column's values as the driver converts them, a DuckDB chunk (2048 rows) per batch: /ipc writes an Arrow batch per chunk. */
export async function* firstColumn(result: DuckDBResult): AsyncGenerator<unknown[]> {
  for await (const rows of result.yieldRowsJs()) yield rows.map((r) => r[0]);
}

/** Characters of row text per batch: one piece of the written answer (src/pipeline/streamed.ts). */
const BATCH_CHARS = 32 * 1024;
/** Rows of the first batch, before the rows' size is known. */
const FIRST_ROWS = 64;

/**
 * The first column's text (a row's JSON, `null` for SQL NULL), in batches of about BATCH_CHARS
 * characters (a batch ends with the row that reaches them), each read from its own slice of the
 * chunk. Issue 30: the driver's rows of a whole chunk (2048 row arrays and strings, cached by the
 * chunk's vector until the chunk is collected) lived while the chunk's text was written; a young
 * generation V8 had shrunk promoted them to the old generation, which grew by the answer's size
 * before a full collection ran (1 run in 7 of the 1,000,000-row bench: 443 MB against 305 MB). A
 * slice's strings die with its batch, after about one piece of allocation. A slice is as long as
 * the rows read so far say a batch will be; the rows after the cut are read into the next one.
 */
export async function* textBatches(result: DuckDBResult): AsyncGenerator<string[]> {
  let rows = FIRST_ROWS;
  for await (const chunk of result) {
    const column = chunk.getColumnVector(0);
    const count = chunk.rowCount;
    for (let at = 0; at < count; ) {
      const slice = column.slice(at, Math.min(rows, count - at));
      const texts: string[] = [];
      let chars = 0;
      for (let i = 0; i < slice.itemCount && chars < BATCH_CHARS; i++) {
        const v = slice.getItem(i);
        const text = v === null || v === undefined ? 'null' : String(v);
        texts.push(text);
        chars += text.length;
      }
      at += texts.length;
      rows = Math.max(1, Math.min(count, Math.ceil((texts.length * BATCH_CHARS) / Math.max(chars, 1))));
      yield texts;
    }
  }
}
