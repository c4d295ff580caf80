// Compiled catalogs in the core database's `_schema_*` tables (seed 001), on DuckDB or PostgreSQL.
// A catalog's rows are rewritten when its compiled form changes (its `version` hash), kept when it
// is unloaded (marked disabled), and deleted only by `_schema_hard_remove`.
import { createHash } from 'node:crypto';
import type { ResolvedCatalog } from '../../catalog/model.js';
import type { SchemaIndex } from '../../schema/surface.js';
import type { DataSourceRuntime, SourceConnection } from '../../sources/types.js';
import type { CoreStore } from '../core-store.js';
import type { Descriptions } from './descriptions.js';
import type { Embedder } from './embedder.js';
import { type CatalogRows, type Row, schemaRows } from './rows.js';

/** Rows per INSERT statement: DuckDB binds large VALUES lists slowly (measured: 50 rows per statement is 4x faster than 200). */
const BATCH = 50;

/**
 * Version hash of compiled rows. Descriptions are left out: written ones are stored by the mutations
 * themselves, so changing one does not rewrite a whole catalog.
 */
const hash = (v: unknown): string =>
  createHash('sha256').update(JSON.stringify(v, (k, x) => (k === 'description' ? undefined : x))).digest('hex').slice(0, 32);

export interface CatalogMeta {
  readonly description: string | null;
}

export type DescribedKind = 'type' | 'field' | 'module' | 'catalog';

export class CatalogStore {
  constructor(
    private readonly core: CoreStore,
    readonly descriptions: Descriptions,
  ) {}

  private get json(): string {
    return this.core.runtime.type === 'postgres' ? 'JSONB' : 'JSON';
  }

  private t(table: string): string {
    return this.core.t(table);
  }

  private async insert(c: SourceConnection, table: string, rows: readonly Row[], json: readonly string[] = []): Promise<void> {
    if (!rows.length) return;
    const cols = Object.keys(rows[0]!);
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH);
      const params: unknown[] = [];
      const values = batch.map((r) => `(${cols.map((col) => {
        params.push(r[col] ?? null);
        return json.includes(col) ? `CAST($${params.length} AS ${this.json})` : `$${params.length}`;
      }).join(', ')})`);
      await c.write({ sql: `INSERT INTO ${this.t(table)} (${cols.join(', ')}) VALUES ${values.join(', ')}`, params });
    }
  }

  /** Loads the summarized descriptions into memory (at start, before the first schema is built). */
  async loadDescriptions(): Promise<void> {
    const d = this.descriptions;
    d.clear();
    const read = (sql: string) => this.core.runtime.rows(sql, []);
    const desc = (r: Row) => ({ description: String(r.description ?? ''), long_description: String(r.long_description ?? '') });
    for (const r of await read(`SELECT name, description, long_description FROM ${this.t('_schema_types')} WHERE is_summarized`)) d.types.set(String(r.name), desc(r));
    for (const r of await read(`SELECT type_name, name, description, long_description FROM ${this.t('_schema_fields')} WHERE is_summarized`)) d.fields.set(`${r.type_name}.${r.name}`, desc(r));
    for (const r of await read(`SELECT name, description, long_description FROM ${this.t('_schema_modules')} WHERE is_summarized`)) d.modules.set(String(r.name), desc(r));
    for (const r of await read(`SELECT name, description, long_description FROM ${this.t('_schema_catalogs')} WHERE is_summarized`)) d.catalogs.set(String(r.name), desc(r));
  }

  /** Marks rows whose description was written by the schema management mutations. */
  private summarize(rows: CatalogRows): CatalogRows {
    const d = this.descriptions;
    const mark = (r: Row, x: { long_description: string } | undefined) => (x ? { ...r, is_summarized: true, long_description: x.long_description } : { ...r, is_summarized: false, long_description: '' });
    return {
      ...rows,
      types: rows.types.map((r) => mark(r, d.types.get(String(r.name)))),
      fields: rows.fields.map((r) => mark(r, d.fields.get(`${r.type_name}.${r.name}`))),
    };
  }

  private async deletePart(c: SourceConnection, where: string, params: unknown[]): Promise<void> {
    const del = (sql: string) => c.write({ sql, params });
    await del(`DELETE FROM ${this.t('_schema_arguments')} WHERE EXISTS (SELECT 1 FROM ${this.t('_schema_fields')} f WHERE f.type_name = ${this.t('_schema_arguments')}.type_name AND f.name = ${this.t('_schema_arguments')}.field_name AND f.${where})`);
    await del(`DELETE FROM ${this.t('_schema_enum_values')} WHERE type_name IN (SELECT name FROM ${this.t('_schema_types')} WHERE ${where})`);
    await del(`DELETE FROM ${this.t('_schema_data_object_queries')} WHERE object_name IN (SELECT name FROM ${this.t('_schema_types')} WHERE ${where})`);
    await del(`DELETE FROM ${this.t('_schema_data_objects')} WHERE name IN (SELECT name FROM ${this.t('_schema_types')} WHERE ${where})`);
    await del(`DELETE FROM ${this.t('_schema_fields')} WHERE ${where}`);
    await del(`DELETE FROM ${this.t('_schema_types')} WHERE ${where}`);
  }

  private async insertPart(c: SourceConnection, rows: CatalogRows): Promise<void> {
    const r = this.summarize(rows);
    await this.insert(c, '_schema_types', r.types);
    await this.insert(c, '_schema_fields', r.fields);
    await this.insert(c, '_schema_arguments', r.arguments);
    await this.insert(c, '_schema_enum_values', r.enumValues);
    await this.insert(c, '_schema_data_objects', r.dataObjects);
    await this.insert(c, '_schema_data_object_queries', r.dataObjectQueries);
  }

  private async setting(c: SourceConnection, key: string): Promise<unknown> {
    // As text on both databases (PostgreSQL would hand JSONB back parsed, DuckDB as text).
    const rows = await c.all({ sql: `SELECT CAST(value AS VARCHAR) AS value FROM ${this.t('_schema_settings')} WHERE key = $1`, params: [key] });
    const v = rows[0]?.value;
    return v === undefined || v === null ? undefined : JSON.parse(String(v));
  }

  private async setSetting(c: SourceConnection, key: string, value: unknown): Promise<void> {
    await c.write({ sql: `DELETE FROM ${this.t('_schema_settings')} WHERE key = $1`, params: [key] });
    await c.write({ sql: `INSERT INTO ${this.t('_schema_settings')} (key, value) VALUES ($1, CAST($2 AS ${this.json}))`, params: [key, JSON.stringify(value)] });
  }

  /** One more change of the stored schema. */
  private async bump(c: SourceConnection): Promise<void> {
    await this.setSetting(c, 'schema_version', Number((await this.setting(c, 'schema_version')) ?? 0) + 1);
  }

  /**
   * Brings the tables in line with the served schema: catalogs whose compiled form changed are
   * rewritten, catalogs no longer served are marked disabled, the system part follows the shape.
   * One transaction; `schema_version` grows by one when anything changed.
   */
  async sync(schema: import('graphql').GraphQLSchema, index: SchemaIndex, catalogs: readonly ResolvedCatalog[], meta: (name: string) => CatalogMeta | undefined, force = false, suspended: ReadonlySet<string> = new Set()): Promise<void> {
    const rows = schemaRows(schema, index, catalogs);
    await this.core.runtime.transaction(async (c) => {
      let changed = false;
      const stored = new Map((await c.all({ sql: `SELECT name, version, disabled, suspended FROM ${this.t('_schema_catalogs')}`, params: [] })).map((r) => [String(r.name), r]));
      for (const cat of catalogs) {
        const name = cat.source.name;
        const part = rows.byCatalog.get(name)!;
        const version = hash({ cat, part });
        const old = stored.get(name);
        const waiting = suspended.has(name);
        if (!force && old?.version === version) {
          // An extension is suspended while a source it depends on is not loaded (hugr's catalogs.suspended).
          if (old.disabled || !!old.suspended !== waiting) {
            await c.write({ sql: `UPDATE ${this.t('_schema_catalogs')} SET disabled = FALSE, suspended = $2 WHERE name = $1`, params: [name, waiting] });
            changed = true;
          }
          continue;
        }
        changed = true;
        await this.deletePart(c, 'catalog = $1', [name]);
        await this.insertPart(c, part);
        const d = this.descriptions.catalogs.get(name);
        await c.write({ sql: `DELETE FROM ${this.t('_schema_catalogs')} WHERE name = $1`, params: [name] });
        await this.insert(c, '_schema_catalogs', [{
          name, version, description: d?.description ?? meta(name)?.description ?? '', long_description: d?.long_description ?? '',
          source_type: cat.source.type, prefix: cat.source.prefix, as_module: cat.source.asModule, read_only: cat.source.readOnly,
          is_summarized: !!d, disabled: false, suspended: waiting,
        }]);
        await c.write({ sql: `DELETE FROM ${this.t('_schema_catalog_dependencies')} WHERE catalog_name = $1`, params: [name] });
        await this.insert(c, '_schema_catalog_dependencies', (cat.extension?.dependencies ?? []).map((d) => ({ catalog_name: name, depends_on: d })));
      }
      const served = new Set(catalogs.map((x) => x.source.name));
      for (const [name, r] of stored) {
        if (served.has(name) || r.disabled) continue;
        changed = true;
        await c.write({ sql: `UPDATE ${this.t('_schema_catalogs')} SET disabled = TRUE WHERE name = $1`, params: [name] });
      }
      const systemVersion = hash({ system: rows.system, modules: rows.modules, mtc: rows.moduleTypeCatalogs, d: rows.directives });
      if (force || (await this.setting(c, 'system_version')) !== systemVersion) {
        changed = true;
        await this.deletePart(c, 'catalog IS NULL', []);
        await this.insertPart(c, rows.system);
        for (const table of ['_schema_modules', '_schema_module_type_catalogs', '_schema_directives']) await c.write({ sql: `DELETE FROM ${this.t(table)}`, params: [] });
        const md = this.descriptions.modules;
        await this.insert(c, '_schema_modules', rows.modules.map((m) => ({ ...m, long_description: md.get(String(m.name))?.long_description ?? '', is_summarized: md.has(String(m.name)) })));
        await this.insert(c, '_schema_module_type_catalogs', rows.moduleTypeCatalogs);
        await this.insert(c, '_schema_directives', rows.directives, ['arguments']);
        await this.setSetting(c, 'system_version', systemVersion);
      }
      if (changed) await this.bump(c);
    });
  }

  /** Writes a description (marked summarized); the number of rows changed. */
  /** The core database's runtime: schema mutations of a request write through its transaction. */
  get runtime(): DataSourceRuntime {
    return this.core.runtime;
  }

  /**
   * Writes a description on `c` (the request's transaction on the core database, so the
   * `_schema_update_*` calls of one request are kept or dropped together); `remember` puts it in the
   * served descriptions once committed. Returns the rows changed (0: unknown name).
   */
  async describe(c: SourceConnection, what: DescribedKind, key: readonly string[], description: string, long: string): Promise<number> {
    const where = what === 'field' ? 'type_name = $3 AND name = $4' : 'name = $3';
    const table = { type: '_schema_types', field: '_schema_fields', module: '_schema_modules', catalog: '_schema_catalogs' }[what];
    const n = (await c.write({ sql: `UPDATE ${this.t(table)} SET description = $1, long_description = $2, is_summarized = TRUE WHERE ${where}`, params: [description, long, ...key] })).changed;
    if (n) await this.bump(c);
    return n;
  }

  remember(what: DescribedKind, key: readonly string[], description: string, long: string): void {
    const d = { description, long_description: long };
    if (what === 'type') this.descriptions.types.set(key[0]!, d);
    else if (what === 'field') this.descriptions.fields.set(`${key[0]}.${key[1]}`, d);
    else if (what === 'module') this.descriptions.modules.set(key[0]!, d);
    else this.descriptions.catalogs.set(key[0]!, d);
  }

  /**
   * Forgets written descriptions of one catalog (empty: every catalog, and the modules): `catalog`
   * the catalog's own row, `type` its types and fields, `all` both. The next sync (forced by the
   * caller) writes the catalog's own descriptions back.
   */
  async resetSummarized(name: string, scope: 'all' | 'catalog' | 'type'): Promise<number> {
    const d = this.descriptions;
    let n = 0;
    await this.core.runtime.transaction(async (c) => {
      const by = name ? ' AND catalog = $1' : '';
      const params = name ? [name] : [];
      if (scope !== 'catalog') {
        for (const r of await c.all({ sql: `SELECT name FROM ${this.t('_schema_types')} WHERE is_summarized${by}`, params })) if (d.types.delete(String(r.name))) n++;
        for (const r of await c.all({ sql: `SELECT type_name, name FROM ${this.t('_schema_fields')} WHERE is_summarized${by}`, params })) if (d.fields.delete(`${r.type_name}.${r.name}`)) n++;
        await c.write({ sql: `UPDATE ${this.t('_schema_types')} SET is_summarized = FALSE WHERE is_summarized${by}`, params });
        await c.write({ sql: `UPDATE ${this.t('_schema_fields')} SET is_summarized = FALSE WHERE is_summarized${by}`, params });
      }
      if (scope !== 'type') {
        const names = name ? [name] : [...d.catalogs.keys()];
        for (const x of names) if (d.catalogs.delete(x)) n++;
        await c.write({ sql: `UPDATE ${this.t('_schema_catalogs')} SET is_summarized = FALSE${name ? ' WHERE name = $1' : ''}`, params });
        if (!name) {
          n += d.modules.size;
          d.modules.clear();
          await c.write({ sql: `UPDATE ${this.t('_schema_modules')} SET is_summarized = FALSE`, params: [] });
        }
      }
    });
    return n;
  }

  /** Deletes a catalog and every row it owns; the number of catalogs removed (0 or 1). */
  async hardRemove(name: string): Promise<number> {
    const d = this.descriptions;
    return this.core.runtime.transaction(async (c) => {
      const found = await c.all({ sql: `SELECT name FROM ${this.t('_schema_catalogs')} WHERE name = $1`, params: [name] });
      if (!found.length) return 0;
      for (const r of await c.all({ sql: `SELECT name FROM ${this.t('_schema_types')} WHERE catalog = $1`, params: [name] })) d.types.delete(String(r.name));
      for (const r of await c.all({ sql: `SELECT type_name, name FROM ${this.t('_schema_fields')} WHERE catalog = $1`, params: [name] })) d.fields.delete(`${r.type_name}.${r.name}`);
      d.catalogs.delete(name);
      await this.deletePart(c, 'catalog = $1', [name]);
      await c.write({ sql: `DELETE FROM ${this.t('_schema_catalog_dependencies')} WHERE catalog_name = $1 OR depends_on = $1`, params: [name] });
      await c.write({ sql: `DELETE FROM ${this.t('_schema_module_type_catalogs')} WHERE catalog_name = $1`, params: [name] });
      await c.write({ sql: `DELETE FROM ${this.t('_schema_catalogs')} WHERE name = $1`, params: [name] });
      await this.bump(c);
      return 1;
    });
  }

  /** Forgets a catalog's stored version, so its next load writes it again. */
  async cleanVersion(name: string): Promise<number> {
    return this.core.runtime.transaction(async (c) =>
      (await c.write({ sql: `UPDATE ${this.t('_schema_catalogs')} SET version = '' WHERE name = $1`, params: [name] })).changed);
  }

  /**
   * Embeddings (seed 001 `vec`, EMBEDDER_URL) for the catalogs, types, fields and modules that have
   * none, `batch` texts per call. A row's text is its name and its descriptions.
   */
  async embedMissing(embedder: Embedder, batch: number): Promise<number> {
    const targets: { table: string; key: string[]; text: (r: Row) => string }[] = [
      { table: '_schema_catalogs', key: ['name'], text: (r) => String(r.name) },
      { table: '_schema_modules', key: ['name'], text: (r) => String(r.name) },
      { table: '_schema_types', key: ['name'], text: (r) => String(r.name) },
      { table: '_schema_fields', key: ['type_name', 'name'], text: (r) => `${r.type_name}.${r.name}` },
    ];
    const vector = this.core.runtime.compiler.vectorFromText('$1');
    let n = 0;
    for (const target of targets) {
      const rows = await this.core.runtime.rows(`SELECT ${target.key.join(', ')}, description, long_description FROM ${this.t(target.table)} WHERE vec IS NULL ORDER BY ${target.key.join(', ')}`, []);
      for (let i = 0; i < rows.length; i += batch) {
        const part = rows.slice(i, i + batch);
        const vecs = await embedder.embed(part.map((r) => [target.text(r), r.description, r.long_description].filter(Boolean).join('\n')));
        await this.core.runtime.transaction(async (c) => {
          for (const [j, r] of part.entries()) {
            const where = target.key.map((k, x) => `${k} = $${x + 2}`).join(' AND ');
            await c.write({ sql: `UPDATE ${this.t(target.table)} SET vec = ${vector} WHERE ${where}`, params: [JSON.stringify(vecs[j]), ...target.key.map((k) => r[k])] });
          }
        });
        n += part.length;
      }
    }
    return n;
  }

  /** Forgets the embeddings of one catalog (empty: all), so `embedMissing` computes them again. */
  async clearVectors(name: string): Promise<void> {
    await this.core.runtime.transaction(async (c) => {
      const by = name ? ' WHERE catalog = $1' : '';
      const params = name ? [name] : [];
      await c.write({ sql: `UPDATE ${this.t('_schema_types')} SET vec = NULL${by}`, params });
      await c.write({ sql: `UPDATE ${this.t('_schema_fields')} SET vec = NULL${by}`, params });
      await c.write({ sql: `UPDATE ${this.t('_schema_catalogs')} SET vec = NULL${name ? ' WHERE name = $1' : ''}`, params });
      if (!name) await c.write({ sql: `UPDATE ${this.t('_schema_modules')} SET vec = NULL`, params: [] });
    });
  }
}
