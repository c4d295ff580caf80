// The cluster's shared state in the core database (SPEC §12): `_cluster_nodes` (who is there) and
// two `_schema_settings` keys: `schema_version` (the change counter workers poll) and
// `cluster_sources` (which sources the cluster serves, with a generation per change, so a worker
// that missed a broadcast can tell what to load, reload or unload).
// Cluster mode requires a PostgreSQL core database (src/config/load.ts), so this SQL is PostgreSQL's;
// only `schemaVersion` also runs on DuckDB (a standalone node answers it too).
import type { Row, SourceConnection } from '../../sources/types.js';
import type { CoreStore } from '../core-store.js';

export interface NodeRow {
  readonly name: string;
  readonly url: string;
  readonly role: string;
}

export interface DesiredSource {
  readonly state: 'loaded' | 'unloaded';
  /** Grows with every change of the source, so a reload reaches workers already serving it. */
  readonly generation: number;
}

export type DesiredSources = Readonly<Record<string, DesiredSource>>;

export class ClusterStore {
  constructor(private readonly core: CoreStore) {}

  private get nodes(): string {
    return this.core.t('_cluster_nodes');
  }

  private get settings(): string {
    return this.core.t('_schema_settings');
  }

  private write(sql: string, params: readonly unknown[]): Promise<{ changed: number }> {
    return this.core.runtime.transaction((c) => c.write({ sql, params }));
  }

  /** Registers this node afresh (a restart starts a new `started_at`). */
  async join(node: NodeRow & { version: string }): Promise<void> {
    await this.core.runtime.transaction(async (c) => {
      await c.write({ sql: `DELETE FROM ${this.nodes} WHERE name = $1`, params: [node.name] });
      await c.write({
        sql: `INSERT INTO ${this.nodes} (name, url, role, version, started_at, last_heartbeat, error) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, NULL)`,
        params: [node.name, node.url, node.role, node.version],
      });
    });
  }

  /** False when the row is gone (management took the node for a ghost while it was silent). */
  async heartbeat(name: string, error: string | null): Promise<boolean> {
    const r = await this.write(`UPDATE ${this.nodes} SET last_heartbeat = CURRENT_TIMESTAMP, error = $2 WHERE name = $1`, [name, error]);
    return r.changed > 0;
  }

  async leave(name: string): Promise<void> {
    await this.write(`DELETE FROM ${this.nodes} WHERE name = $1`, [name]);
  }

  /** Removes nodes silent for longer than `ttlMs`, by the database's clock (nodes' clocks may differ). */
  async removeGhosts(ttlMs: number): Promise<string[]> {
    return this.core.runtime.transaction(async (c) => {
      const r = await c.write({ sql: `DELETE FROM ${this.nodes} WHERE last_heartbeat < CURRENT_TIMESTAMP - make_interval(secs => $1) RETURNING name`, params: [ttlMs / 1000] });
      return r.rows.map((x) => String(x.name));
    });
  }

  async members(): Promise<NodeRow[]> {
    const rows = await this.core.runtime.rows(`SELECT name, url, role FROM ${this.nodes} ORDER BY name`, []);
    return rows.map((r) => ({ name: String(r.name), url: String(r.url), role: String(r.role) }));
  }

  async managementUrl(): Promise<string | null> {
    const rows = await this.core.runtime.rows(`SELECT url FROM ${this.nodes} WHERE role = 'management' ORDER BY last_heartbeat DESC LIMIT 1`, []);
    return rows[0] ? String(rows[0].url) : null;
  }

  async schemaVersion(): Promise<number> {
    return Number((await this.setting(undefined, 'schema_version')) ?? 0);
  }

  async desired(): Promise<DesiredSources> {
    return ((await this.setting(undefined, 'cluster_sources')) as DesiredSources | undefined) ?? {};
  }

  /**
   * Records what the cluster serves of each named source and bumps `schema_version`, in one
   * transaction; `bumpGeneration: false` records a source only when it has no entry yet.
   * Returns the new desired state.
   */
  async setDesired(changes: Readonly<Record<string, DesiredSource['state']>>, bumpGeneration = true): Promise<DesiredSources> {
    return this.core.runtime.transaction(async (c) => {
      // The row lock orders management's own concurrent writers of these keys.
      await c.all({ sql: `SELECT key FROM ${this.settings} WHERE key IN ('schema_version', 'cluster_sources') FOR UPDATE`, params: [] });
      const current = { ...(((await this.setting(c, 'cluster_sources')) as DesiredSources | undefined) ?? {}) };
      let changed = false;
      for (const [name, state] of Object.entries(changes)) {
        const old = current[name];
        if (old && !bumpGeneration) continue;
        current[name] = { state, generation: (old?.generation ?? 0) + 1 };
        changed = true;
      }
      if (!changed) return current;
      await this.setSetting(c, 'cluster_sources', current);
      await this.setSetting(c, 'schema_version', Number((await this.setting(c, 'schema_version')) ?? 0) + 1);
      return current;
    });
  }

  private async setting(c: SourceConnection | undefined, key: string): Promise<unknown> {
    // As text on both databases (PostgreSQL hands JSONB back parsed, DuckDB JSON as text).
    const sql = `SELECT CAST(value AS VARCHAR) AS value FROM ${this.settings} WHERE key = $1`;
    const rows: Row[] = c ? await c.all({ sql, params: [key] }) : await this.core.runtime.rows(sql, [key]);
    const v = rows[0]?.value;
    return v === undefined || v === null ? undefined : JSON.parse(String(v));
  }

  private async setSetting(c: SourceConnection, key: string, value: unknown): Promise<void> {
    await c.write({ sql: `DELETE FROM ${this.settings} WHERE key = $1`, params: [key] });
    await c.write({ sql: `INSERT INTO ${this.settings} (key, value) VALUES ($1, CAST($2 AS JSONB))`, params: [key, JSON.stringify(value)] });
  }
}
