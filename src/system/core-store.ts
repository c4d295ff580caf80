// Reads and writes of the core tables that the server itself needs (lifecycle, declared sources),
// on whichever database CORE_DB_PATH names.
import type { DataObject } from '../catalog/model.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { DataSourceRuntime, Row, SourceConnection } from '../sources/types.js';
import { hashSecret, storedSecret } from '../shared/secrets.js';
import { CORE_SCHEMA_VERSION, MIGRATIONS, type MigrationStep } from './core-migrations.js';

export interface DataSourceRow {
  name: string;
  type: string;
  prefix: string;
  as_module: boolean;
  description: string | null;
  path: string;
  disabled: boolean | null;
  self_defined: boolean | null;
  read_only: boolean | null;
}

export interface CatalogSourceRow {
  name: string;
  type: string;
  description: string | null;
  path: string;
}

export class CoreStore {
  constructor(readonly runtime: DataSourceRuntime) {}

  /** A core table, qualified for its database. */
  t(table: string): string {
    const q = (s: string) => this.runtime.compiler.quoteIdentifier(s);
    return this.runtime.tableName({ table } as DataObject).map(q).join('.');
  }

  private run<T>(fn: (c: SourceConnection) => Promise<T>): Promise<T> {
    return this.runtime.transaction(fn);
  }

  /**
   * Lookups go to a pooled connection, not a transaction: they must not queue behind a request's
   * open write transaction (DuckDB writes one at a time), which could be the caller's own.
   */
  private read(sql: string, params: readonly unknown[]): Promise<Row[]> {
    return this.runtime.rows(sql, params);
  }

  /** Creates or migrates the core tables; refuses a database newer than this server. */
  async migrate(): Promise<void> {
    const pg = this.runtime.type === 'postgres';
    const adapt = (sql: string) => (pg ? sql.replace(/\bJSON\b/g, 'JSONB') : sql);
    await this.runtime.exec(adapt(MIGRATIONS[0]![0] as string));
    const rows = await this.read(`SELECT value FROM ${this.t('_schema_settings')} WHERE key = $1`, ['core_schema_version']);
    const raw = rows[0]?.value;
    const current = raw === undefined ? 0 : Number(typeof raw === 'string' ? JSON.parse(raw) : raw);
    if (current > CORE_SCHEMA_VERSION) {
      throw new PublicError(ErrorCode.ConfigInvalid, `the core database has schema version ${current}, newer than this server's ${CORE_SCHEMA_VERSION}; upgrade the server`);
    }
    for (let v = current; v < CORE_SCHEMA_VERSION; v++) {
      for (const step of MIGRATIONS[v]!) await this.step(step, adapt);
    }
    if (current !== CORE_SCHEMA_VERSION) {
      await this.run(async (c) => {
        await c.write({ sql: `DELETE FROM ${this.t('_schema_settings')} WHERE key = $1`, params: ['core_schema_version'] });
        await c.write({ sql: `INSERT INTO ${this.t('_schema_settings')} (key, value) VALUES ($1, CAST($2 AS ${pg ? 'JSONB' : 'JSON'}))`, params: ['core_schema_version', String(CORE_SCHEMA_VERSION)] });
      });
    }
  }

  private async step(step: MigrationStep, adapt: (sql: string) => string): Promise<void> {
    if (typeof step === 'string') return this.runtime.exec(adapt(step));
    // Keys stored in plain text by an older server become their hashes (issue 14 item 2).
    const rows = await this.read(`SELECT name, key FROM ${this.t('api_keys')}`, []);
    await this.run(async (c) => {
      for (const r of rows) {
        const hashed = storedSecret(String(r.key));
        if (hashed !== r.key) await c.write({ sql: `UPDATE ${this.t('api_keys')} SET key = $1 WHERE name = $2`, params: [hashed, r.name] });
      }
    });
  }

  async dataSource(name: string): Promise<DataSourceRow | undefined> {
    const rows = await this.read(`SELECT * FROM ${this.t('data_sources')} WHERE name = $1`, [name]);
    return rows[0] as DataSourceRow | undefined;
  }

  async role(name: string): Promise<{ name: string; disabled: boolean | null } | undefined> {
    const rows = await this.read(`SELECT name, disabled FROM ${this.t('roles')} WHERE name = $1`, [name]);
    return rows[0] as { name: string; disabled: boolean | null } | undefined;
  }

  /** The permission rows of a role (SPEC §7), JSON columns parsed. */
  async rolePermissions(role: string): Promise<Row[]> {
    const rows = await this.read(`SELECT * FROM ${this.t('role_permissions')} WHERE role = $1`, [role]);
    const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : (v ?? null));
    return rows.map((r) => ({ ...r, filter: json(r.filter), data: json(r.data) }));
  }

  /** A managed API key row by its key value (seed 000 `api_keys_by_key`); keys are stored hashed. */
  async apiKeyByKey(key: string): Promise<Row | undefined> {
    const rows = await this.read(`SELECT * FROM ${this.t('api_keys')} WHERE key = $1`, [hashSecret(key)]);
    return rows[0];
  }

  async dataSources(): Promise<DataSourceRow[]> {
    return (await this.read(`SELECT * FROM ${this.t('data_sources')} ORDER BY name`, [])) as unknown as DataSourceRow[];
  }

  async catalogSources(dataSource: string): Promise<CatalogSourceRow[]> {
    const sql = `SELECT cs.* FROM ${this.t('catalog_sources')} AS cs JOIN ${this.t('catalogs')} AS c ON c.catalog_name = cs.name WHERE c.data_source_name = $1 ORDER BY cs.name`;
    return (await this.read(sql, [dataSource])) as unknown as CatalogSourceRow[];
  }

  /** Replaces a source declared by file, with its one catalog source, in one transaction. */
  async upsertDeclared(ds: DataSourceRow, catalog: CatalogSourceRow): Promise<void> {
    await this.run(async (c) => {
      const del = (table: string, column: string, value: string) => c.write({ sql: `DELETE FROM ${this.t(table)} WHERE ${column} = $1`, params: [value] });
      await del('catalogs', 'data_source_name', ds.name);
      await del('data_sources', 'name', ds.name);
      await del('catalog_sources', 'name', catalog.name);
      const insert = (table: string, row: Row) => {
        const cols = Object.keys(row);
        return c.write({ sql: `INSERT INTO ${this.t(table)} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, params: Object.values(row) });
      };
      await insert('data_sources', { ...ds });
      await insert('catalog_sources', { ...catalog });
      await insert('catalogs', { catalog_name: catalog.name, data_source_name: ds.name });
    });
  }
}
