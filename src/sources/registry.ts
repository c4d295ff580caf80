// The data sources being served: their runtimes, compiled catalogs and status.
import type { ResolvedCatalog } from '../catalog/model.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { DataSourceRuntime } from './types.js';

export type SourceState = 'loaded' | 'unloaded' | 'failed';

export interface SourceStatus {
  readonly state: SourceState;
  readonly message: string;
  readonly warnings: readonly string[];
  readonly log: readonly string[];
}

export interface LoadedSource {
  readonly runtime: DataSourceRuntime;
  readonly catalog: ResolvedCatalog;
}

export class SourceRegistry {
  private readonly loaded = new Map<string, LoadedSource>();
  private readonly statuses = new Map<string, SourceStatus>();

  set(name: string, source: LoadedSource, log: readonly string[], warnings: readonly string[] = source.catalog.warnings): void {
    this.loaded.set(name, source);
    this.statuses.set(name, { state: 'loaded', message: 'loaded', warnings, log });
  }

  remove(name: string): LoadedSource | undefined {
    const s = this.loaded.get(name);
    this.loaded.delete(name);
    return s;
  }

  setStatus(name: string, status: SourceStatus): void {
    this.statuses.set(name, status);
  }

  status(name: string): SourceStatus | undefined {
    return this.statuses.get(name);
  }

  get(name: string): LoadedSource | undefined {
    return this.loaded.get(name);
  }

  runtime(name: string): DataSourceRuntime {
    const s = this.loaded.get(name);
    if (!s) throw new PublicError(ErrorCode.SourceUnavailable, `data source "${name}" is not loaded`);
    return s.runtime;
  }

  catalogs(): ResolvedCatalog[] {
    return [...this.loaded.values()].map((s) => s.catalog);
  }

  all(): LoadedSource[] {
    return [...this.loaded.values()];
  }
}
