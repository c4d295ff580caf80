// Issue 29 item 3: a loud, honest start. One log line per declared source (loaded with its object
// count, or why not), /ready 503 while a declared source is not loaded (unless
// READY_WITH_FAILED_SOURCES), and STRICT_SOURCES (the default with NODE_ENV=production) stopping
// the start with one line naming the source. The compiled server, started as a user would.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY, type ServerProcess, startServer } from '../support/server.js';

/** A catalogs folder: `shop` loads; `broken` names a table its DuckDB lacks; `typo` misspells a directive. */
function catalogs(): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-start-sources-'));
  const source = (name: string, schema: string) => {
    mkdirSync(join(root, name));
    writeFileSync(join(root, name, 'source.yaml'), `type: duckdb\npath: ":memory:"\nprefix: ${name}\nseed: seed.sql\n`);
    writeFileSync(join(root, name, 'seed.sql'), 'CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR);\n');
    writeFileSync(join(root, name, 'schema.graphql'), schema);
  };
  source('shop', 'type items @table(name: "items") {\n  id: Int! @pk\n  name: String\n}\n');
  source('broken', 'type items @table(name: "items") {\n  id: Int! @pk\n}\n\ntype orders @table(name: "orders") {\n  id: Int! @pk\n}\n');
  source('typo', 'type items @tabel(name: "items") {\n  id: Int! @pk\n}\n');
  return root;
}

describe('a start with sources that do not load (STRICT_SOURCES=false)', () => {
  let s: ServerProcess;
  beforeAll(async () => {
    s = await startServer({ CATALOGS_DIR: catalogs(), STRICT_SOURCES: 'false' });
  }, 90_000);
  afterAll(() => s?.stop());

  it('logs one line per source: loaded with its object count, or the error naming the table or the directive', () => {
    const logs = s.logs();
    const about = (name: string) => logs.filter((l) => l.source === name);
    expect(about('shop')).toEqual([expect.objectContaining({ level: 30, objects: 1, msg: 'data source "shop" loaded: 1 data object' })]);
    const broken = about('broken');
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatchObject({ level: 50 });
    expect(broken[0]!.msg).toMatch(/^data source "broken" failed to load: table "main\.orders" of "orders" \(.*schema\.graphql:5\) does not exist in the database$/);
    const typo = about('typo');
    expect(typo).toHaveLength(1);
    expect(typo[0]).toMatchObject({ level: 50 });
    expect(typo[0]!.msg).toMatch(/^data source "typo" failed to load: .*tabel.*schema\.graphql:1/);
    const summary = logs.find((l) => Array.isArray(l.failed));
    expect(summary).toMatchObject({ level: 50, failed: ['broken', 'typo'], msg: '2 data sources did not load: "broken", "typo"; the server starts without them, /ready answers 503 until they load' });
  });

  it('/ready is 503 naming the missing table; the loaded source serves', async () => {
    const r = await fetch(`${s.url}/ready`);
    expect(r.status).toBe(503);
    const body = (await r.json()) as { status: string; sources: Record<string, string> };
    expect(body.status).toBe('not_ready');
    expect(body.sources.shop).toBe('loaded');
    expect(body.sources.broken).toMatch(/^failed: table "main\.orders" of "orders" .* does not exist in the database$/);
    const q = await fetch(`${s.url}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ shop_items { id } }"}' });
    expect(await q.json()).toEqual({ data: { shop_items: [] }, extensions: {} });
  });
});

describe('READY_WITH_FAILED_SOURCES=true', () => {
  let s: ServerProcess;
  beforeAll(async () => {
    s = await startServer({ CATALOGS_DIR: catalogs(), STRICT_SOURCES: 'false', READY_WITH_FAILED_SOURCES: 'true' });
  }, 90_000);
  afterAll(() => s?.stop());

  it('/ready is 200 "degraded", still listing why a source did not load', async () => {
    const r = await fetch(`${s.url}/ready`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { status: string; sources: Record<string, string> };
    expect(body.status).toBe('degraded');
    expect(body.sources.broken).toMatch(/^failed: table "main\.orders"/);
  });
});

describe('STRICT_SOURCES', () => {
  const start = (env: Record<string, string>) => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-strict-'));
    const { NODE_ENV: _ignored, ...inherited } = process.env;
    return spawnSync(process.execPath, [ENTRY], {
      cwd, encoding: 'utf8', timeout: 60_000,
      env: { ...inherited, CONFIG_FILE: '', CORE_DB_PATH: join(cwd, 'core.duckdb'), CATALOGS_DIR: catalogs(), BIND: '127.0.0.1:0', LOG_LEVEL: 'warn', ...env },
    });
  };

  it('true: a source that does not load stops the start with one line naming it (exit 2)', () => {
    const r = start({ STRICT_SOURCES: 'true', NODE_ENV: 'test' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^svc: failed to start: data source "broken" failed to load \(STRICT_SOURCES\): table "main\.orders" of "orders" \(.*\) does not exist in the database \(and 1 more: "broken", "typo"\)$/)]);
  });

  it('is the default with NODE_ENV=production (what npm start and the container run)', () => {
    const r = start({ NODE_ENV: 'production' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^svc: failed to start: data source "broken" failed to load \(STRICT_SOURCES\)/);
  });
});
