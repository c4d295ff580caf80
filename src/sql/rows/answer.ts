// The answer of a rows statement as its source returns it: the driver's rows and the assembler of
// their shape, nothing built yet. The fast path writes the answer text straight from the rows
// (src/pipeline/fast-path/write.ts: one pass that checks completion and counts the answer budget);
// anything else asks for the objects (`parse`), built once by the generated assembler.
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { RawJson, stringifyJson } from '../../shared/json.js';
import type { RowsAssembler } from '../compiler.js';

/** The request's answer budget (src/executor/response-budget.ts), as an answer counts itself into it. */
export interface AnswerCounter {
  /** An answer built as objects: walked. */
  addValue(value: unknown): void;
  /** An answer written as text: its objects and length, counted while it was written. */
  addWritten(objects: number, bytes: number): void;
  /** Characters the answer may still take (Infinity: no limit): a writer stops once past them. */
  readonly bytesLeft: number;
}

/** Writes one shape's answer text from its rows, or undefined where it cannot prove the text (write.ts). */
export interface RowsWriter {
  /** The text, or undefined: the answer is completed from its objects instead. Stops once past `maxBytes`. */
  write(rows: readonly (readonly unknown[])[], maxBytes: number): string | undefined;
  /** Objects in the text last written. */
  objects(): number;
}

export class RowsAnswer extends RawJson {
  private built: unknown;
  private isBuilt = false;
  private released = false;
  private counter: AnswerCounter | undefined;

  constructor(
    /** The driver's own array: emptied once the answer no longer needs it (`release`). */
    readonly rows: (readonly unknown[])[],
    readonly assembler: RowsAssembler,
  ) {
    super('');
  }

  /**
   * Empties the rows once the answer is written or built. The driver's result keeps referencing
   * this array after the request (pg's promise form, and any further promise step it passes
   * through): without this, every row of every request survived V8's young-generation
   * collections and was promoted, about 60 KB per Q1 request and the largest part of its GC time
   * (measured: docs/sql.md "Rows"). Emptied, only the array survives.
   */
  release(): void {
    this.released = true;
    this.rows.length = 0;
  }

  /** Counted into `counter` once, by whichever form is taken first (text or objects). */
  countedBy(counter: AnswerCounter | undefined): this {
    this.counter = counter;
    return this;
  }

  /** The answer as objects (built once), counted by a walk. */
  override parse(): unknown {
    if (!this.isBuilt) {
      // Released after its text was written: the objects can no longer be built (a caller's bug).
      if (this.released) throw new PublicError(ErrorCode.Internal, 'a rows answer was read after it was released');
      this.built = this.assembler(this.rows);
      this.isBuilt = true;
      this.release();
    }
    const counter = this.counter;
    if (counter) {
      this.counter = undefined;
      counter.addValue(this.built);
    }
    return this.built;
  }

  /** The answer's text by `writer`, counted as written; undefined where the writer cannot prove it. */
  writeWith(writer: RowsWriter): string | undefined {
    const counter = this.counter;
    const text = writer.write(this.rows, counter ? counter.bytesLeft : Infinity);
    if (text === undefined) return undefined;
    if (counter) {
      this.counter = undefined;
      counter.addWritten(writer.objects(), text.length);
    }
    return text;
  }

  /** The objects' JSON, uncompleted (what RawJson's text is); the fast path writes through `written`. */
  override get text(): string {
    return stringifyJson(this.parse());
  }
}
