// Fair under hostile load (issue 31 item 1), against the built server in its own process on a real
// socket: anonymous callers running slow statements hold only their share of the DuckDB pool, a
// signed-in caller still gets an answer, a waiter beyond the wait limit is refused with a retryable
// SOURCE_UNAVAILABLE, a client that goes away frees its connection at once (QUERY_TIMEOUT is off
// here, so nothing else would), and the server stops on SIGTERM (exit 1 at SHUTDOWN_TIMEOUT).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/app.js';
import { type ServerProcess, startServer } from '../support/server.js';

let server: ServerProcess;
const SLOW = '{ function { shop_series(start: 1, stop: 2000000000) { generate_series } } }';

const post = (query: string, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(`${server.url}/query`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }), ...(signal ? { signal } : {}) });

async function metric(line: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const found = text.split('\n').find((l) => l.startsWith(line));
  return found ? Number(found.slice(line.length).trim()) : 0;
}

/** Polls until `check` holds; the test's own timeout bounds it (no timed assertion). */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

beforeAll(async () => {
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(config, 'auth:\n  api_keys:\n    enabled: true\n    keys:\n      - {key: "probe-key", role: admin, username: probe}\n');
  server = await startServer({
    CONFIG_FILE: config,
    CATALOGS_DIR: join(import.meta.dirname, '..', '..', 'catalogs'),
    DB_MAX_OPEN_CONNS: '2',
    SOURCE_ROLE_SHARE: '0.5',
    SOURCE_QUEUE_TIMEOUT: '300ms',
    // Two anonymous statements from one address reach the pool's admission (this test's subject),
    // rather than the second waiting at the entry for the address's one request (caller-gate.test.ts).
    ANONYMOUS_MAX_REQUESTS_PER_ADDRESS: '0',
    QUERY_TIMEOUT: '0',
    // Slow statements must stay slow: with the default row cap (MAX_RESPONSE_ROWS, and anonymous callers'
    // ANONYMOUS_MAX_RESPONSE_ROWS) the 2,000,000,000-row series is refused at its first row over it.
    MAX_RESPONSE_ROWS: '0',
    ANONYMOUS_MAX_RESPONSE_ROWS: '0',
    SHUTDOWN_TIMEOUT: '1s',
  });
}, 60_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
});

describe('admission per source and per caller', () => {
  it('keeps a share of the pool for other callers, refuses waiters in time, frees a connection when its client leaves, and stops on SIGTERM with a statement running', async () => {
    const inUse = 'svc_pool_connections{pool="duckdb",state="in_use"}';
    const attacker = new AbortController();
    const slow = post(SLOW, {}, attacker.signal).catch((e: Error) => e.name);
    await until(async () => (await metric(inUse)) === 1);

    // A second anonymous statement: anonymous callers already hold their share (1 of 2).
    const second = await post(SLOW);
    const body = (await second.json()) as { errors: { message: string; extensions: { code: string; retryable?: boolean } }[] };
    expect(body.errors[0]!.extensions.code, JSON.stringify(body)).toBe('SOURCE_UNAVAILABLE');
    expect(body.errors[0]!.message).toBe('data source "duckdb" is busy: no connection was free within 300 ms; try again');

    // A signed-in caller gets the connection the anonymous ones may not take.
    const probe = await post('{ shop_tags { id } }', { 'x-svc-api-key': 'probe-key' });
    expect(await probe.json()).toEqual({ data: { shop_tags: [{ id: 1 }, { id: 2 }, { id: 3 }] }, extensions: {} });

    // The attacker goes away: its statement is interrupted and its connection freed (no time limit is set).
    attacker.abort();
    expect(await slow).toBe('AbortError');
    await until(async () => (await metric(inUse)) === 0);
    const anonymous = await post('{ shop_tags { id } }');
    expect(await anonymous.json()).toEqual({ data: { shop_tags: [{ id: 1 }, { id: 2 }, { id: 3 }] }, extensions: {} });
    expect(await metric('svc_admission_refused_total{pool="duckdb",reason="wait_limit"}')).toBe(1);

    // A slow statement still running at SHUTDOWN_TIMEOUT after SIGTERM does not keep the process alive.
    void post(SLOW).catch(() => undefined);
    await until(async () => (await metric(inUse)) === 1);
    expect(await server.stop('SIGTERM')).toBe(1);
    expect(server.lines.some((l) => l.includes('requests still running at SHUTDOWN_TIMEOUT'))).toBe(true);
  }, 120_000);
});
