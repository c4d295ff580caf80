// A DuckDB file held by another process (the usual case: a second svc started in the same folder)
// is refused with the file, the holder's PID and what to do, for the core database (naming
// CORE_DB_PATH, at start) and for a data source (at load), not with DuckDB's IO text.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { startServer } from '../support/server.js';

const REPO = resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'svc-locked-'));
const file = join(dir, 'held.duckdb');
let holder: ChildProcess;

beforeAll(async () => {
  // Another process opens the file and keeps it open, as a running server does.
  holder = spawn(process.execPath, ['--input-type=module', '-e', `
    import { DuckDBInstance } from '@duckdb/node-api';
    const db = await DuckDBInstance.create(${JSON.stringify(file)});
    const c = await db.connect();
    await c.run('CREATE TABLE t AS SELECT 1 AS id');
    console.log('holding');
    setInterval(() => {}, 1000);`], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((done) => createInterface({ input: holder.stdout! }).on('line', (l) => l === 'holding' && done()));
}, 60_000);
afterAll(() => holder?.kill());

it('a second server over a locked core database stops with one line naming CORE_DB_PATH and the holder', async () => {
  const failed = await startServer({ CORE_DB_PATH: file }).then(
    async (s) => (await s.stop(), ''),
    (e: Error) => e.message,
  );
  expect(failed).toContain(`svc: failed to start: data source "core": the DuckDB file "${file}" (CORE_DB_PATH) is locked by another process (PID ${holder.pid})`);
  expect(failed).not.toContain('IO Error');
}, 120_000);

it('a data source over a locked file fails to load naming the file and the holder; the server keeps serving', async () => {
  const t: TestApp = await startApp();
  try {
    const r = await t.gql(`mutation($path: String!) { core { insert_data_sources(data: {name: "held", type: "duckdb", prefix: "held",
        as_module: true, self_defined: true, path: $path}) { name } } }`, { path: file });
    expect(r.body.errors).toBeUndefined();
    const load = await t.gql('mutation { function { core { load_data_source(name: "held") { success message } } } }');
    expect(load.body.data.function.core.load_data_source).toEqual({
      success: false,
      message: `data source "held": the DuckDB file "${file}" is locked by another process (PID ${holder.pid}), probably another svc started in this folder; stop it, or give this server its own file`,
    });
    expect((await t.gql('{ __typename }')).body.data).toEqual({ __typename: 'Query' });
  } finally {
    await t.close();
  }
}, 120_000);
