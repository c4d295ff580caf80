// The runtime of an extension source (SPEC §3.1 `type: extension`): it has no database. Its SDL
// changes other sources' objects (src/catalog/extension.ts), whose own runtimes run every statement.
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { SqlCompiler } from '../../sql/compiler.js';
import type { DataSourceRuntime, Row } from '../types.js';

export class ExtensionSource implements DataSourceRuntime {
  readonly type = 'extension' as const;

  constructor(readonly name: string) {}

  private none(): never {
    throw new PublicError(ErrorCode.BadUserInput, `data source "${this.name}" is an extension: it has no database of its own`);
  }

  get compiler(): SqlCompiler {
    return this.none();
  }

  get readOnly(): boolean {
    return true;
  }

  tableName(): readonly string[] {
    return this.none();
  }

  functionName(): readonly string[] {
    return this.none();
  }

  queryJson(): Promise<unknown> {
    return Promise.resolve().then(() => this.none());
  }

  transaction<T>(): Promise<T> {
    return Promise.resolve().then(() => this.none());
  }

  rows(): Promise<Row[]> {
    return Promise.resolve().then(() => this.none());
  }

  exec(): Promise<void> {
    return Promise.resolve().then(() => this.none());
  }

  async close(): Promise<void> {}
}
