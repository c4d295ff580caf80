// An answer an agent reads goes into its context window: it is cut to a row and a byte budget
// (MCP_MAX_ROWS, MCP_MAX_BYTES), and the cut is said in a note, so the agent knows to narrow the
// query or aggregate instead of reasoning over a partial list as if it were whole.
import { stringifyJson } from '../shared/json.js';

export interface Budgeted {
  /** The JSON text of the (possibly cut) answer; not valid JSON only when `note` says so. */
  readonly text: string;
  readonly note?: string;
}

function cutLists(value: unknown, rows: number, seen: { cut: number; longest: number }): unknown {
  if (Array.isArray(value)) {
    if (value.length > rows) {
      seen.cut++;
      seen.longest = Math.max(seen.longest, value.length);
    }
    return value.slice(0, rows).map((v) => cutLists(v, rows, seen));
  }
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutLists(v, rows, seen)]));
  }
  return value;
}

export function withinBudget(value: unknown, maxRows: number, maxBytes: number): Budgeted {
  let rows = maxRows;
  for (;;) {
    const seen = { cut: 0, longest: 0 };
    const text = stringifyJson(cutLists(value, rows, seen) ?? null);
    const bytes = Buffer.byteLength(text);
    if (bytes <= maxBytes || rows <= 1) {
      const notes: string[] = [];
      if (seen.cut) {
        notes.push(`truncated: ${seen.cut} list(s) cut to their first ${rows} item(s) (the longest had ${seen.longest}${rows < maxRows ? `; fewer than ${maxRows} rows to stay within ${maxBytes} bytes` : ''})`);
      }
      if (bytes > maxBytes) {
        notes.push(`truncated: the answer was cut at ${maxBytes} of ${bytes} bytes and is not complete JSON`);
        return { text: Buffer.from(text).subarray(0, maxBytes).toString('utf8'), note: `${notes.join('; ')}. Ask for fewer fields or rows (limit, filter), or aggregate.` };
      }
      return notes.length ? { text, note: `${notes.join('; ')}. Ask for fewer rows (limit, filter, offset to page) or aggregate.` } : { text };
    }
    rows = Math.max(1, Math.floor(rows / 2));
  }
}
