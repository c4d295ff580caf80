// The answer of a rows statement as its source returns it: the driver's rows and the assembler of
// their shape, nothing built yet. The fast path writes the answer text straight from the rows
// (src/pipeline/fast-path/write.ts: one pass that checks completion and counts the answer budget);
// anything else asks for the objects (`parse`), built once by the generated assembler.
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
  private counter: AnswerCounter | undefined;

  constructor(
    readonly rows: readonly (readonly unknown[])[],
    readonly assembler: RowsAssembler,
  ) {
    super('');
  }

  /** Counted into `counter` once, by whichever form is taken first (text or objects). */
  countedBy(counter: AnswerCounter | undefined): this {
    this.counter = counter;
    return this;
  }

  /** The answer as objects (built once), counted by a walk. */
  override parse(): unknown {
    if (!this.isBuilt) {
      this.built = this.assembler(this.rows);
      this.isBuilt = true;
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
