// A JSON request body checked while it streams in (issue 31): a list longer than MAX_LIST_VALUES, or
// variables nested deeper than MAX_NESTING, is refused at the byte where the limit is crossed, before
// the rest of the body is read or anything is parsed. JSON.parse of a 1.3 MB body of 200,000 ids
// took about 20 ms of the one event loop before the list could be counted and refused; this scan
// stops after the 10,001st value (about 60 kB) and costs a fraction of a millisecond.
//
// It only tracks structure: brackets, commas, the keys leading to each container, and strings
// skipped whole (UTF-8 never puts an ASCII byte inside a multi-byte character, so bytes are enough).
// Malformed JSON is left to the parser that follows; the scan never decides validity.
/** What crossed a limit, and where in the body (keys and indexes from the top, `variables.ids`). */
export interface BodyLimitCrossed {
  readonly limit: 'list' | 'nesting';
  readonly path: string;
}

export interface BodyScanLimits {
  /** Values of one list (0: no limit). */
  readonly maxListValues: number;
  /** Nesting of objects and lists within a `variables` value, that object being level 1 (as valueNesting counts). */
  readonly maxNesting: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Keys longer than this are cut in the path a refusal names. */
const KEY_CHARS = 64;

interface Frame {
  readonly array: boolean;
  /** The key (or index) this container sits under in its parent. */
  readonly key: string;
  /** Arrays: values started so far. */
  count: number;
  /** Objects: the next string is a key. */
  expectKey: boolean;
  /** Objects: the key of the member being read. */
  member: string;
}

/** One body, fed chunk by chunk; `feed` answers the first limit crossed, then nothing more is read. */
export class BodyScan {
  private readonly stack: Frame[] = [];
  private inString = false;
  private escaped = false;
  /** Collecting a key's bytes (at most KEY_CHARS). */
  private key: number[] | undefined;
  /** An array was just opened: its first value, if any, is the next significant byte. */
  private opened = false;
  /** The stack depth of the outermost `variables` container (0: not inside one). */
  private variablesAt = 0;

  constructor(private readonly limits: BodyScanLimits) {}

  feed(chunk: Uint8Array): BodyLimitCrossed | undefined {
    const n = chunk.length;
    const { maxListValues, maxNesting } = this.limits;
    const stack = this.stack;
    for (let i = 0; i < n; i++) {
      if (this.inString) {
        if (this.escaped) {
          // The byte after a backslash (perhaps the previous chunk's last) is part of the string.
          this.escaped = false;
          if (this.key && this.key.length < KEY_CHARS) this.key.push(chunk[i]!);
          continue;
        }
        if (this.key) {
          // A key, byte by byte (it names the place a refusal reports).
          const c = chunk[i]!;
          if (c === BACKSLASH) this.escaped = true;
          else if (c === QUOTE) {
            this.inString = false;
            stack[stack.length - 1]!.member = Buffer.from(this.key).toString('utf8');
            this.key = undefined;
          } else if (this.key.length < KEY_CHARS) this.key.push(c);
          continue;
        }
        // A value: jump to the next quote; an odd run of backslashes before it escapes it.
        const q = indexOf(chunk, QUOTE, i);
        if (q < 0) {
          // The rest of the chunk is string; a trailing odd run escapes the next chunk's first byte.
          this.escaped = backslashesBefore(chunk, n, i) % 2 === 1;
          return undefined;
        }
        if (backslashesBefore(chunk, q, i) % 2 === 0) this.inString = false;
        i = q;
        continue;
      }
      const c = chunk[i]!;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      const top = stack[stack.length - 1];
      if (this.opened) {
        this.opened = false;
        if (c !== 0x5d) top!.count = 1;
      }
      if (c === QUOTE) {
        this.inString = true;
        if (top && !top.array && top.expectKey) {
          top.expectKey = false;
          this.key = [];
        }
      } else if (c === 0x2c) {
        // A comma: the next value of a list, the next member of an object.
        if (!top) continue;
        if (top.array) {
          if (++top.count > maxListValues && maxListValues > 0) return { limit: 'list', path: this.path(stack.length) };
        } else top.expectKey = true;
      } else if (c === 0x7b || c === 0x5b) {
        const key = !top ? '' : top.array ? String(top.count - 1) : top.member;
        stack.push({ array: c === 0x5b, key, count: 0, expectKey: c === 0x7b, member: '' });
        this.opened = c === 0x5b;
        if (!this.variablesAt && key === 'variables' && top && !top.array) this.variablesAt = stack.length;
        const depth = this.variablesAt ? stack.length - this.variablesAt + 1 : 0;
        // Outside variables the body only carries its envelope ({query, variables, extensions}, /jq-query's
        // {jq, query: {...}}): the same bound plus room for it keeps the scan's own stack small.
        if (depth > maxNesting || stack.length > maxNesting + 3) return { limit: 'nesting', path: this.path(Math.min(stack.length, (this.variablesAt || 1) + 1)) };
      } else if (c === 0x7d || c === 0x5d) {
        if (stack.length === this.variablesAt) this.variablesAt = 0;
        stack.pop();
      }
    }
    return undefined;
  }

  /** The keys and indexes down to the container at `depth` (1: the body itself). */
  private path(depth: number): string {
    let out = '';
    for (let d = 1; d < depth && d < this.stack.length; d++) {
      const key = this.stack[d]!.key;
      out += this.stack[d - 1]!.array ? `[${key}]` : `${out ? '.' : ''}${key}`;
    }
    return out || '(the body)';
  }
}

function indexOf(chunk: Uint8Array, byte: number, from: number): number {
  return Buffer.prototype.indexOf.call(chunk, byte, from) as number;
}

/** Backslashes directly before `end`, not looking before `from` (where this stretch of string began). */
function backslashesBefore(chunk: Uint8Array, end: number, from: number): number {
  let k = end - 1;
  while (k >= from && chunk[k] === BACKSLASH) k--;
  return end - 1 - k;
}
