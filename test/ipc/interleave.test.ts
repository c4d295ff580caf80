// An /ipc answer held in memory (a table function's rows) is written a batch at a time with a turn of
// the event loop between batches (issue 31): a fast reader on loopback never makes the socket wait,
// so without those turns a 1,000,000-row answer held the event loop until its last batch, and a
// small request sent meanwhile was answered only after it. Against the built server on a real socket.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/app.js';
import { type ServerProcess, startServer } from '../support/server.js';

let server: ServerProcess;
const PROBE = '{ shop_tags(limit: 1) { id } }';
const SIGNED_IN = { 'content-type': 'application/json', 'x-svc-api-key': 'reader-key' };

beforeAll(async () => {
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(config, 'auth:\n  api_keys:\n    enabled: true\n    keys:\n      - {key: "reader-key", role: admin, username: reader}\n');
  server = await startServer({ CONFIG_FILE: config, CATALOGS_DIR: join(import.meta.dirname, '..', '..', 'catalogs') });
}, 60_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
});

describe('/ipc answers and other requests', () => {
  it('answers a small request while a 1,000,000-row answer is being written', async () => {
    // The probe once before: its first answer carries the server's first-use work (its plan compiled,
    // the work left from the start), which is not this test's subject and lost the race 1 time in 4.
    const warm = await fetch(`${server.url}/query`, { method: 'POST', headers: SIGNED_IN, body: JSON.stringify({ query: PROBE }) });
    expect((await warm.json()).data.shop_tags).toHaveLength(1);
    const big = await fetch(`${server.url}/ipc`, {
      method: 'POST', headers: SIGNED_IN, body: JSON.stringify({ query: '{ function { shop_series(start: 1, stop: 1000000) { generate_series } } }' }),
    });
    expect(big.status).toBe(200);
    const reader = big.body!.getReader();
    const events: string[] = [];
    // The answer has begun (its first part is out): the rest is being written while the probe goes.
    const first = await reader.read();
    expect(first.done).toBe(false);
    let bytes = first.value!.length;
    const probe = fetch(`${server.url}/query`, { method: 'POST', headers: SIGNED_IN, body: JSON.stringify({ query: PROBE }) })
      .then(async (r) => {
        expect((await r.json()).data.shop_tags).toHaveLength(1);
        events.push('probe answered');
      });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
    }
    events.push('big answer ended');
    await probe;
    // 1,000,000 Int64 values at least: the whole answer was written.
    expect(bytes).toBeGreaterThan(8_000_000);
    expect(events).toEqual(['probe answered', 'big answer ended']);
  }, 120_000);
});
