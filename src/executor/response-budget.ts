// The most one request's answer may hold (issue 31): MAX_RESPONSE_ROWS objects (every row of every
// list, nested ones included, is one) and MAX_RESPONSE_BYTES of JSON. Each statement's answer is
// counted as it arrives from its source, before it is parsed or written into the response: the
// database's JSON text by its length and objects, a parsed answer by a walk that stops at the
// limit, an /ipc stream batch by batch, so a stream stops at the bound instead of running on. The
// request gets RESPONSE_TOO_LARGE at the field whose answer crossed it.
import { ErrorCode, PublicError } from '../shared/errors.js';
import { noteLimitRefusal } from '../shared/limit-refusal.js';
import { currentRequest, type RequestScope } from '../shared/request-scope.js';

export interface ResponseLimits {
  /** Objects of one request's answer; 0: no limit. */
  readonly rows: number;
  /** Bytes of one request's answer as JSON; 0: no limit. */
  readonly bytes: number;
  /** The settings the two limits come from, named in the error (default MAX_RESPONSE_ROWS / MAX_RESPONSE_BYTES). */
  readonly settings?: { readonly rows: string; readonly bytes: string };
}

/**
 * The limits of anonymous callers: the smaller of each pair, 0 on one side meaning "no limit of its
 * own" (ANONYMOUS_MAX_RESPONSE_ROWS=0: anonymous callers get MAX_RESPONSE_ROWS like everyone).
 * Anonymous callers are anyone who can reach the server: a 1,000,000-row answer costs both cores
 * for seconds (issue 31), so they get a much smaller one by default; signed-in callers keep theirs.
 */
export function anonymousLimits(all: ResponseLimits, anonymous: { readonly rows: number; readonly bytes: number }): ResponseLimits {
  const rows = tighter(all.rows, anonymous.rows);
  const bytes = tighter(all.bytes, anonymous.bytes);
  return {
    rows: rows.value,
    bytes: bytes.value,
    settings: { rows: rows.own ? 'ANONYMOUS_MAX_RESPONSE_ROWS' : 'MAX_RESPONSE_ROWS', bytes: bytes.own ? 'ANONYMOUS_MAX_RESPONSE_BYTES' : 'MAX_RESPONSE_BYTES' },
  };
}

function tighter(all: number, own: number): { value: number; own: boolean } {
  return own > 0 && (all <= 0 || own < all) ? { value: own, own: true } : { value: all, own: false };
}

export class ResponseBudget {
  private rows = 0;
  private bytes = 0;

  constructor(
    private readonly limits: ResponseLimits,
    /** The request refused when the answer crosses a limit (src/shared/limit-refusal.ts); else the AsyncLocalStorage's. */
    private readonly scope?: RequestScope,
  ) {}

  /** Characters an answer may still take before the request crosses MAX_RESPONSE_BYTES. */
  get bytesLeft(): number {
    return this.limits.bytes > 0 ? this.limits.bytes - this.bytes : Infinity;
  }

  /** An answer the rows writer wrote (src/pipeline/fast-path/write.ts): counted as it was written, no walk. */
  addWritten(objects: number, bytes: number): void {
    this.bytes += bytes;
    this.checkBytes();
    this.rows += objects;
    this.checkRows();
  }

  /** The database's JSON text of one answer. */
  addText(text: string): void {
    this.bytes += text.length;
    this.checkBytes();
    // Every text is scanned (natively, stopping once past the limit): a short one cannot cross the
    // limit alone, but its objects still count towards it (one streamed row at a time, many fields).
    if (this.limits.rows > 0) this.rows += objectsIn(text, this.limits.rows - this.rows);
    this.checkRows();
  }

  /** A parsed answer (or one streamed row). */
  addValue(value: unknown): void {
    const rowLimit = this.limits.rows > 0 ? this.limits.rows : Infinity;
    const byteLimit = this.limits.bytes > 0 ? this.limits.bytes : Infinity;
    if (rowLimit === Infinity && byteLimit === Infinity) return;
    const stack: unknown[] = [value];
    while (stack.length) {
      const v = stack.pop();
      if (v === null || v === undefined) {
        this.bytes += 4;
      } else if (typeof v === 'string') {
        this.bytes += v.length + 3;
      } else if (typeof v !== 'object') {
        this.bytes += 8;
      } else if (Array.isArray(v)) {
        this.bytes += 2;
        for (const x of v) stack.push(x);
      } else {
        this.rows++;
        // for...in: no array of entries per object (a million rows are a million objects).
        const o = v as Record<string, unknown>;
        for (const k in o) {
          this.bytes += k.length + 4;
          stack.push(o[k]);
        }
      }
      // Checked as the walk goes: a huge answer is refused without walking all of it.
      if (this.rows > rowLimit || this.bytes > byteLimit) break;
    }
    this.checkBytes();
    this.checkRows();
  }

  private checkRows(): void {
    if (this.limits.rows > 0 && this.rows > this.limits.rows) {
      noteLimitRefusal(this.scope ?? currentRequest());
      throw new PublicError(ErrorCode.ResponseTooLarge, `the answer holds more than ${this.limits.rows} rows, ${limitOf(this.limits.settings?.rows ?? 'MAX_RESPONSE_ROWS')}ask for fewer (limit, filter) or page with offset`);
    }
  }

  private checkBytes(): void {
    if (this.limits.bytes > 0 && this.bytes > this.limits.bytes) {
      noteLimitRefusal(this.scope ?? currentRequest());
      throw new PublicError(ErrorCode.ResponseTooLarge, `the answer is larger than ${this.limits.bytes} bytes, ${limitOf(this.limits.settings?.bytes ?? 'MAX_RESPONSE_BYTES')}ask for fewer rows or fields, or page with offset`);
    }
  }
}

/** The error's words for the limit crossed: an anonymous caller's is the small one, and signing in lifts it. */
function limitOf(setting: string): string {
  return setting.startsWith('ANONYMOUS_') ? `the limit of one anonymous request (${setting}); sign in for a larger one, or ` : `the limit of one request (${setting}); `;
}

/**
 * Objects in a JSON text, counting up to `stop`: each `{"` starts one. Inside a JSON string a quote is
 * always escaped (`{\"`), so the pair never comes from a string's content; an empty object `{}` is
 * not counted (a row with no fields). indexOf runs natively: a 70 MB answer is counted in a few ms.
 */
function objectsIn(text: string, stop: number): number {
  let n = 0;
  for (let i = text.indexOf('{"'); i >= 0 && n <= stop; i = text.indexOf('{"', i + 2)) n++;
  return n;
}
