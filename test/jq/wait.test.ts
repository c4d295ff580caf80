// jq's time limit counts the program's own work, not its wait for a worker (issue 31): with one worker,
// a program sent right behind a runaway one waits for the runaway to be stopped and a fresh worker to
// start, then gets its whole JQ_TIMEOUT; the wait is bounded by JQ_WAIT_TIMEOUT, past which the program
// is refused with a coded, retryable 503. Real servers, real workers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JqEngine } from '../../src/jq/engine.js';
import { startApp, type TestApp } from '../support/app.js';

// A query every schema answers: the wait, not the data, is under test.
const QUERY = '{ __typename }';
const RUNAWAY = 'def f: f; f';

let roomy: TestApp;
let tight: TestApp;

beforeAll(async () => {
  [roomy, tight] = await Promise.all([
    // One worker; a wait long enough for any fresh worker's start; 3 s of worker time is plenty for a
    // one-line program on a loaded machine.
    startApp({ SECRET_KEY: 'k', JQ_WORKERS: '1', JQ_TIMEOUT: '3s', JQ_WAIT_TIMEOUT: '60s' }),
    // One worker held by a runaway program for 8 s; the next program may wait 2 s.
    startApp({ SECRET_KEY: 'k', JQ_WORKERS: '1', JQ_TIMEOUT: '8s', JQ_WAIT_TIMEOUT: '2s' }),
  ]);
});
afterAll(async () => {
  await roomy?.close();
  await tight?.close();
});

/** Resolves once the server's jq worker has taken a program (the runaway one, sent just before). */
async function workerBusy(t: TestApp): Promise<void> {
  const engine = t.app.get(JqEngine);
  while (engine.running === 0) await new Promise((r) => setTimeout(r, 20));
}

const jqQuery = (t: TestApp, jq: string) =>
  t.request({ method: 'POST', url: '/jq-query', payload: JSON.stringify({ jq, query: { query: QUERY } }), headers: { 'content-type': 'application/json' } });

describe('the wait for a jq worker', () => {
  it('is not part of JQ_TIMEOUT: a program queued behind a runaway one runs once a fresh worker takes it', async () => {
    const runaway = jqQuery(roomy, RUNAWAY);
    await workerBusy(roomy);
    // Sent while the runaway program holds the only worker: it waits for the runaway to reach its
    // 3 s limit and for a fresh worker to start. Counted from its arrival, its own 3 s ran out there.
    const next = jqQuery(roomy, '.data.__typename');
    const [a, b] = await Promise.all([runaway, next]);
    expect(roomy.app.get(JqEngine).running).toBe(0);
    expect(a.status).toBe(500);
    expect(a.body).toEqual({ error: 'the jq program was stopped after the time limit of 3 s (JQ_TIMEOUT)' });
    expect(b.status, b.text).toBe(200);
    expect(b.body).toBe('Query');
  });

  it('is bounded by JQ_WAIT_TIMEOUT: past it the program is refused, 503 JQ_BUSY, retryable', async () => {
    const runaway = jqQuery(tight, RUNAWAY);
    await workerBusy(tight);
    const next = await jqQuery(tight, '.data.__typename');
    expect(next.status).toBe(503);
    expect(next.body).toEqual({ error: 'no jq worker was free to take the program within 2 s (JQ_WAIT_TIMEOUT); try again' });
    const a = await runaway;
    expect(a.body).toEqual({ error: 'the jq program was stopped after the time limit of 8 s (JQ_TIMEOUT)' });
  });

  it('is a setting of the validated configuration', async () => {
    await expect(startApp({ SECRET_KEY: 'k', JQ_WAIT_TIMEOUT: '0' })).rejects.toThrow(/JQ_WAIT_TIMEOUT/);
  });
});
