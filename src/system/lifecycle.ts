// Loading and unloading data sources (seed 001 `core` functions, SPEC §3.1). Each change compiles
// the source's catalog with the same compiler codegen uses, then swaps the served schema at once.
import { compileCatalog } from '../catalog/compile.js';
import { applyExtensions, compileExtension } from '../catalog/extension.js';
import { CatalogError } from '../catalog/errors.js';
import type { ResolvedCatalog, SourceInfo } from '../catalog/model.js';
import type { Config } from '../config/schema.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import { Serial } from '../shared/mutex.js';
import type { DuckDbEngine } from '../sources/duckdb/engine.js';
import type { JqRunner } from '../sources/http/request.js';
import type { IntrospectedCatalog } from '../sources/introspect-sdl.js';
import type { KindContext } from '../sources/kind.js';
import { findKind, SOURCE_KINDS, sourceKind } from '../sources/kinds.js';
import { qualifyCatalogSql } from '../sources/catalog-sql.js';
import { checkAgainstDatabase, markColumns } from '../sources/schema-check.js';
import type { DataSourceRuntime } from '../sources/types.js';
import type { SourceRegistry } from '../sources/registry.js';
import { resolve } from 'node:path';
import { readCatalogFiles } from './catalog-files.js';
import type { CoreStore, DataSourceRow } from './core-store.js';
import type { StorageCache } from './storage/cache.js';
import { isRemote } from './storage/files.js';

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

const sourceInfo = (row: DataSourceRow): SourceInfo => ({ name: row.name, type: row.type, prefix: row.prefix ?? '', asModule: !!row.as_module, readOnly: !!row.read_only });

export interface OperationResult {
  success: boolean;
  message: string;
  affected_rows?: number;
}

export class Lifecycle {
  private readonly serial = new Serial();
  /** Seed files of sources declared by file (run once, when their DuckDB file is created). */
  readonly seeds = new Map<string, string>();
  /** Declared DuckDB sources whose file may be created (source.yaml `create: true`). */
  readonly creatable = new Set<string>();

  constructor(
    private readonly config: Config,
    private readonly engine: DuckDbEngine,
    private readonly registry: SourceRegistry,
    private readonly core: CoreStore,
    private readonly rebuild: () => void,
    private readonly log: Logger,
    /** Writes the served schema to the core database (`_schema_*` tables, seed 001). */
    private readonly persist: () => Promise<void> = async () => undefined,
    /** Copies of object storage files for DuckDB sources (src/system/storage/cache.ts). */
    private readonly storage?: StorageCache,
    /** jq for http sources in hugr's form. */
    private readonly jq?: JqRunner,
  ) {}

  /** Where local catalog files (and http sources' OpenAPI files) may be read from. */
  private allowedDirs(): string[] {
    return [this.config.CATALOGS_DIR, ...this.config.CATALOG_ALLOWED_PATHS].map((d) => resolve(d));
  }

  /** x-svc-spec-path: one local file, refused outside CATALOG_ALLOWED_PATHS as catalog files are. */
  private readonly readLocal = async (path: string): Promise<string> => {
    const files = await readCatalogFiles('localFS', path, this.allowedDirs());
    if (files.length !== 1) throw new PublicError(ErrorCode.BadUserInput, `x-svc-spec-path "${path}" is not one file`);
    return files[0]!.text;
  };

  /** Set while every source loads at start: the schema is persisted once, at the end. */
  private starting = false;

  private async persisted(): Promise<void> {
    if (this.starting) return;
    // The source is served either way; a core database that refuses the write is reported.
    await this.persist().catch((e: Error) => this.log.warn({ error: e.message }, 'compiled catalogs not stored in the core database'));
  }

  /** What a kind needs from the server to open and read a source (src/sources/kind.ts). */
  private kindContext(): KindContext {
    return { config: this.config, engine: this.engine, ...(this.jq ? { jq: this.jq } : {}), readFile: this.readLocal };
  }

  /**
   * The catalog SDL a source describes (self_defined), read as its kind reads it (its database's
   * tables, or an OpenAPI document); `opened`: the runtime just opened for it.
   */
  private async introspected(row: DataSourceRow, opened?: DataSourceRuntime): Promise<IntrospectedCatalog> {
    const kind = sourceKind(row.type);
    if (!kind.introspect) {
      const readers = SOURCE_KINDS.filter((k) => 'introspect' in k).map((k) => k.type).join(', ');
      throw new PublicError(ErrorCode.BadUserInput, `a self-defined schema is read from ${readers} sources only; "${row.name}" is ${row.type}`);
    }
    return kind.introspect(row, this.kindContext(), opened ?? this.registry.get(row.name)?.runtime);
  }

  /**
   * describe_data_source_schema without `self`: the source's catalog as its author wrote it, as hugr
   * answers (not the generated API): a self-defined source's derived SDL, then each catalog file
   * under a `# <file>` line.
   */
  async writtenCatalog(name: string): Promise<string> {
    const row = await this.core.dataSource(name);
    if (!row) return `unknown data source "${name}"`;
    const parts: string[] = [];
    if (row.self_defined) parts.push((await this.introspected(row)).sdl);
    const allowed = this.allowedDirs();
    for (const cs of await this.core.catalogSources(row.name)) {
      for (const f of await readCatalogFiles(cs.type, cs.path, allowed)) parts.push(`# ${f.file}\n${f.text.trimEnd()}\n`);
    }
    return parts.join('\n');
  }

  /** describe_data_source_schema(self: true): the derived catalog SDL (its warnings are comments at the top). */
  async selfDefinedSdl(name: string, log: boolean): Promise<string> {
    const row = await this.core.dataSource(name);
    if (!row) return `unknown data source "${name}"`;
    const found = await this.introspected(row);
    if (!log) return found.sdl;
    try {
      const compiled = compileCatalog(sourceInfo(row), [{ file: `${row.name} (self_defined)`, text: found.sdl }], sourceKind(row.type).capabilities.catalog);
      return `${found.sdl}\n# compilation log\n# compiled ${compiled.objects.length} data objects\n${compiled.warnings.map((w) => `# ${w}`).join('\n')}\n`;
    } catch (e) {
      const problems = e instanceof CatalogError ? e.problems : [(e as Error).message];
      return `${found.sdl}\n# compilation log\n${problems.map((p) => `# ${p}`).join('\n')}\n`;
    }
  }

  private async compile(row: DataSourceRow, suspend: boolean, opened?: DataSourceRuntime): Promise<ResolvedCatalog> {
    const kind = sourceKind(row.type);
    const info = sourceInfo(row);
    const files = [];
    const allowed = this.allowedDirs();
    for (const cs of await this.core.catalogSources(row.name)) files.push(...(await readCatalogFiles(cs.type, cs.path, allowed)));
    if (row.self_defined) {
      // The source's own description merged with its catalogs (functions, `extend type` relations), as in hugr.
      const found = await this.introspected(row, opened);
      const catalog = compileCatalog(info, [{ file: `${row.name} (self_defined)`, text: found.sdl }, ...files], kind.capabilities.catalog);
      return { ...catalog, warnings: [...found.warnings, ...catalog.warnings] };
    }
    // An http source serves core.http_data_source_request_scalar without a catalog of its own (as in hugr).
    if (!files.length && !kind.capabilities.catalogOptional) throw new PublicError(ErrorCode.CatalogInvalid, `data source "${row.name}" has no catalog files`);
    // An extension is checked against the sources served now, itself left out (a reload replaces it).
    if (kind.capabilities.extendsOthers) return compileExtension(info, files, applyExtensions(this.registry.catalogs().filter((c) => c.source.name !== row.name)).catalogs, { suspend });
    return compileCatalog(info, files, kind.capabilities.catalog);
  }

  /**
   * `suspend` (at start): an extension whose dependency is not loaded (refused, or not yet fixed)
   * is kept waiting for it rather than refused, so one refused source never takes more than
   * itself and the extensions over it down (issue 32); loading the dependency later applies it.
   */
  load(name: string, opts: { suspend?: boolean } = {}): Promise<OperationResult> {
    return this.serial.run(async () => {
      const t0 = performance.now();
      const took = () => ({ duration_ms: Math.round(performance.now() - t0) });
      try {
        if (!NAME.test(name)) throw new PublicError(ErrorCode.BadUserInput, `invalid data source name "${name}"`);
        if (name === 'core') throw new PublicError(ErrorCode.BadUserInput, 'the core source is always loaded');
        let row = await this.core.dataSource(name);
        if (!row) throw new PublicError(ErrorCode.NotFound, `unknown data source "${name}"`);
        if (row.prefix && !NAME.test(row.prefix)) throw new PublicError(ErrorCode.BadUserInput, `invalid prefix "${row.prefix}" of data source "${name}"`);
        // DuckDB reads object storage files from local copies (no httpfs here); a database file
        // copied from a storage is not the storage's file, so the source takes no writes.
        const kind = sourceKind(row.type);
        const copied = kind.capabilities.attachesFile && this.storage && isRemote(row.path);
        if (copied) row = { ...row, path: await this.storage!.copy(row.path), read_only: true };
        const source = row;
        const open = async (compiled?: ResolvedCatalog) => {
          // A DuckDB file can be attached once: the previous runtime goes first.
          const previous = this.registry.remove(name);
          if (previous) await previous.runtime.close().catch(() => undefined);
          const seedFile = this.seeds.get(name);
          return kind.open({ ...source, ...(compiled ? { catalog: compiled } : {}), create: this.creatable.has(name), ...(seedFile ? { seedFile } : {}) }, this.kindContext());
        };
        // A self-defined DuckDB source describes itself once attached (and seeded): opened before compiling.
        let runtime = kind.capabilities.attachesFile && row.self_defined ? await open() : undefined;
        let catalog: ResolvedCatalog;
        try {
          catalog = await this.compile(row, !!opts.suspend, runtime);
          if (kind.capabilities.attachesFile && this.storage) catalog = await this.storage.localize(catalog);
        } catch (e) {
          if (runtime) (await runtime.close().catch(() => undefined), this.rebuild());
          throw e;
        }
        runtime ??= await open(catalog);
        // Tables, columns and their types against the declarations (issue 29): a mismatch gives
        // wrong answers or failing queries, so the source does not load and says why.
        const checked = await checkAgainstDatabase(runtime, catalog, kind.capabilities.columns).catch((e: Error) => ({ problems: [], warnings: [`the database's tables could not be checked: ${e.message}`], naive: new Set<string>(), reads: new Map(), singles: new Set<string>(), exacts: new Set<string>() }));
        if (checked.problems.length) {
          await runtime.close().catch(() => undefined);
          this.rebuild();
          throw new CatalogError(checked.problems);
        }
        catalog = await qualifyCatalogSql(runtime, markColumns(catalog, checked));
        const warnings = [...catalog.warnings, ...checked.warnings];
        this.registry.set(name, { runtime, catalog }, [`compiled ${catalog.objects.length} data objects`, ...warnings.map((w) => `warning: ${w}`)], warnings);
        try {
          this.rebuild();
        } catch (e) {
          // A catalog that clashes with another source's names must not take the server down.
          this.registry.remove(name);
          await runtime.close().catch(() => undefined);
          this.rebuild();
          throw new PublicError(ErrorCode.CatalogInvalid, `schema of data source "${name}" conflicts with the served schema: ${(e as Error).message}`);
        }
        await this.persisted();
        // One line per source (at start, the start summary): what it serves, or why it does not.
        const count = `${catalog.objects.length} data object${catalog.objects.length === 1 ? '' : 's'}`;
        const warned = warnings.length ? `, ${warnings.length} warning${warnings.length === 1 ? '' : 's'} (data_source_status)` : '';
        this.log.info({ source: name, objects: catalog.objects.length, warnings: warnings.length, ...took() }, `data source "${name}" loaded: ${count}${warned}`);
        return { success: true, message: `data source "${name}" loaded` };
      } catch (e) {
        const message = e instanceof PublicError ? e.message : `internal error: ${(e as Error).message}`;
        const problems = e instanceof CatalogError ? e.problems : [message];
        this.registry.setStatus(name, { state: 'failed', message, warnings: [], log: problems });
        // At start a source that does not load is an error of the start, not a passing remark.
        this.log[this.starting ? 'error' : 'warn']({ source: name, error: message, ...took() }, `data source "${name}" failed to load: ${message}`);
        return { success: false, message };
      }
    });
  }

  unload(name: string): Promise<OperationResult> {
    return this.serial.run(async () => {
      const previous = this.registry.remove(name);
      if (!previous) return { success: false, message: `data source "${name}" is not loaded` };
      this.rebuild();
      // Requests that started on the old schema keep it, but their statements against this source
      // now fail with "not loaded": a DuckDB file can be attached once only, so it is detached now.
      await previous.runtime.close().catch(() => undefined);
      this.registry.setStatus(name, { state: 'unloaded', message: 'unloaded', warnings: [], log: [] });
      await this.persisted();
      return { success: true, message: `data source "${name}" unloaded` };
    });
  }

  /** Loads every source that is not disabled (the start); returns those that failed, with why. */
  async loadAll(): Promise<{ name: string; message: string }[]> {
    this.starting = true;
    const failed: { name: string; message: string }[] = [];
    try {
      const all = await this.core.dataSources();
      for (const r of all) if (r.disabled) this.log.info({ source: r.name }, `data source "${r.name}" is disabled: not loaded`);
      // Extensions last: they are checked against the sources they depend on (SPEC §3.1).
      const rows = all.filter((r) => !r.disabled);
      const extending = (r: DataSourceRow) => !!findKind(r.type)?.capabilities.extendsOthers;
      for (const row of [...rows.filter((r) => !extending(r)), ...rows.filter(extending)]) {
        const r = await this.load(row.name, { suspend: true });
        if (!r.success) failed.push({ name: row.name, message: r.message });
      }
    } finally {
      this.starting = false;
    }
    await this.persisted();
    return failed;
  }

  async status(name: string): Promise<string> {
    if (name === 'core') return 'loaded';
    const s = this.registry.status(name);
    if (s?.state === 'loaded') {
      const problem = await this.registry.get(name)?.runtime.ping?.();
      if (problem) return `unavailable: ${problem}`;
    }
    if (s?.state === 'loaded' && s.warnings.length) return `loaded with ${s.warnings.length} warning${s.warnings.length > 1 ? 's' : ''}: ${s.warnings.join('; ')}`;
    if (s) return s.state === 'failed' ? `failed: ${s.message}` : s.state;
    return (await this.core.dataSource(name)) ? 'unloaded' : `unknown data source "${name}"`;
  }
}
