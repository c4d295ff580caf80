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

/** Where a key's text is: bytes of a chunk, or text when it spanned chunks (decoded only for a refusal). */
interface KeyRef {
  chunk: Uint8Array | undefined;
  start: number;
  end: number;
  text: string | undefined;
}

interface Frame {
  array: boolean;
  /** The index this container sits at in its parent list (-1: under a key, `key`). */
  index: number;
  readonly key: KeyRef;
  /** Arrays: values started so far. */
  count: number;
  /** Objects: the next string is a key. */
  expectKey: boolean;
  /** Objects: the key of the member being read. */
  readonly member: KeyRef;
}

const VARIABLES = Buffer.from('variables');

/** One body, fed chunk by chunk; `feed` answers the first limit crossed, then nothing more is read. */
export class BodyScan {
  /** Frames by depth, reused: a body of many small objects allocates none per object. */
  private readonly frames: Frame[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The object whose key is being read (undefined: the string is a value). */
  private keyOf: Frame | undefined;
  /** Where the key began in the current chunk, and its bytes from earlier chunks. */
  private keyStart = 0;
  private keyHead = '';
  /** An array was just opened: its first value, if any, is the next significant byte. */
  private opened = false;
  /** The depth of the outermost `variables` container (0: not inside one). */
  private variablesAt = 0;
  /** Digits in a row outside strings, up to the byte read last. */
  private digits = 0;
  /**
   * A run of 16 or more digits outside strings was read: the body may hold an integer a double cannot
   * keep exactly (parseDbJson's slower path). Without one it can go to JSON.parse as it is, and nobody
   * searches its text for such runs again (a regular expression over a 116 kB alias flood cost more
   * than parsing it).
   */
  mayHoldBigIntegers = false;

  constructor(private readonly limits: BodyScanLimits) {}

  feed(chunk: Uint8Array): BodyLimitCrossed | undefined {
    const n = chunk.length;
    const { maxListValues, maxNesting } = this.limits;
    const maxList = maxListValues > 0 ? maxListValues : Infinity;
    // The hot loop runs on locals (a 1 MB body is a million iterations); the fields keep them between
    // chunks. After a limit is crossed nothing more is fed.
    let depth = this.depth;
    let top: Frame | undefined = depth ? this.frames[depth - 1] : undefined;
    let opened = this.opened;
    let inString = this.inString;
    let escaped = this.escaped;
    let digits = this.digits;
    for (let i = 0; i < n; i++) {
      if (inString) {
        // Byte by byte to the closing quote (most strings are short: cheaper than a native search),
        // then, in a long string, by the native search for the next quote.
        const short = Math.min(n, i + 32);
        for (; i < short; i++) {
          const c = chunk[i]!;
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) break;
        }
        if (i === short && i < n) {
          let from = escaped ? i + 1 : i;
          escaped = false;
          for (;;) {
            const q = indexOf(chunk, QUOTE, from);
            if (q < 0) {
              // A trailing odd run of backslashes escapes the next chunk's first byte.
              escaped = backslashesBefore(chunk, n, from) % 2 === 1;
              i = n;
              break;
            }
            i = q;
            if (backslashesBefore(chunk, q, from) % 2 === 0) break;
            from = q + 1;
          }
        }
        if (i >= n) break;
        inString = false;
        const member = this.keyOf;
        if (member) {
          const ref = member.member;
          if (this.keyHead) setText(ref, this.keyHead + text(chunk, this.keyStart, i));
          else setBytes(ref, chunk, this.keyStart, i);
          this.keyOf = undefined;
          this.keyHead = '';
        }
        continue;
      }
      const c = chunk[i]!;
      if (c >= 0x30 && c <= 0x39) {
        if (++digits >= 16) this.mayHoldBigIntegers = true;
        // A number's first digit is a value: the first of a list just opened counts (below).
        if (!opened) continue;
      } else digits = 0;
      if (c === 0x2c) {
        // A comma: the next value of a list, the next member of an object.
        if (top?.array) {
          if (++top.count > maxList) return { limit: 'list', path: this.path(depth) };
        } else if (top) top.expectKey = true;
        continue;
      }
      // Whitespace (and any control byte, which JSON only allows as whitespace).
      if (c <= 0x20) continue;
      if (opened) {
        opened = false;
        if (c !== 0x5d) top!.count = 1;
      }
      if (c === QUOTE) {
        inString = true;
        if (top && !top.array && top.expectKey) {
          top.expectKey = false;
          this.keyOf = top;
          this.keyStart = i + 1;
        }
      } else if (c === 0x7b || c === 0x5b) {
        const parent = top;
        top = this.frames[depth] ??= { array: false, index: -1, key: emptyKey(), count: 0, expectKey: false, member: emptyKey() };
        depth++;
        top.array = c === 0x5b;
        top.count = 0;
        top.expectKey = c === 0x7b;
        setText(top.member, '');
        if (parent?.array) {
          top.index = parent.count - 1;
          setText(top.key, '');
        } else {
          top.index = -1;
          if (parent) copyKey(top.key, parent.member);
          else setText(top.key, '');
          if (!this.variablesAt && parent && isVariables(top.key)) this.variablesAt = depth;
        }
        opened = c === 0x5b;
        const nesting = this.variablesAt ? depth - this.variablesAt + 1 : 0;
        // Outside variables the body only carries its envelope ({query, variables, extensions}, /jq-query's
        // {jq, query: {...}}): the same bound plus room for it keeps the scan's own stack small.
        if (nesting > maxNesting || depth > maxNesting + 3) return { limit: 'nesting', path: this.path(Math.min(depth, (this.variablesAt || 1) + 1)) };
      } else if (c === 0x7d || c === 0x5d) {
        if (depth === this.variablesAt) this.variablesAt = 0;
        if (depth > 0) depth--;
        top = depth ? this.frames[depth - 1] : undefined;
      }
      // Anything else (digits, letters of true/false/null, colons) changes nothing the scan tracks.
    }
    this.depth = depth;
    this.digits = digits;
    this.opened = opened;
    this.inString = inString;
    this.escaped = escaped;
    if (this.keyOf && inString) {
      // A key goes on in the next chunk: keep what this one holds of it.
      if (this.keyHead.length < KEY_CHARS) this.keyHead += text(chunk, this.keyStart, n);
      this.keyStart = 0;
    }
    return undefined;
  }

  /** The keys and indexes down to the container at `depth` (1: the body itself). */
  private path(depth: number): string {
    let out = '';
    for (let d = 1; d < depth; d++) {
      const f = this.frames[d]!;
      out += f.index >= 0 ? `[${f.index}]` : `${out ? '.' : ''}${keyText(f.key)}`;
    }
    return out || '(the body)';
  }
}

function emptyKey(): KeyRef {
  return { chunk: undefined, start: 0, end: 0, text: '' };
}

function setText(ref: KeyRef, text: string): void {
  ref.chunk = undefined;
  ref.text = text;
}

function setBytes(ref: KeyRef, chunk: Uint8Array, start: number, end: number): void {
  ref.chunk = chunk;
  ref.start = start;
  ref.end = end;
  ref.text = undefined;
}

function copyKey(to: KeyRef, from: KeyRef): void {
  to.chunk = from.chunk;
  to.start = from.start;
  to.end = from.end;
  to.text = from.text;
}

function keyText(ref: KeyRef): string {
  return ref.text ?? text(ref.chunk!, ref.start, ref.end);
}

/** Is the key `variables` (compared as bytes: nothing is decoded)? */
function isVariables(ref: KeyRef): boolean {
  if (ref.text !== undefined) return ref.text === 'variables';
  if (ref.end - ref.start !== VARIABLES.length) return false;
  for (let k = 0; k < VARIABLES.length; k++) if (ref.chunk![ref.start + k] !== VARIABLES[k]) return false;
  return true;
}

/** Up to KEY_CHARS bytes of a chunk as text (a key cut in a multi-byte character ends in U+FFFD). */
function text(chunk: Uint8Array, start: number, end: number): string {
  return Buffer.prototype.toString.call(chunk, 'utf8', start, Math.min(end, start + KEY_CHARS)) as string;
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
