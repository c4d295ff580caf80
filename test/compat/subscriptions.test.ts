// hugr's "Subscriptions" page (issue 32) on /subscribe (graphql-ws): query streaming with an interval
// in seconds and a count, one-shot queries (no interval, or 0), several data objects in one
// subscription; native subscriptions and a second root field are refused by name (README differences).
import { createClient, type Client, type ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startNorthwind } from './support.js';

let t: TestApp;
let url: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startNorthwind();
  await t.app.listen(0, '127.0.0.1');
  url = (await t.app.getUrl()).replace('[::1]', '127.0.0.1').replace(/^http/, 'ws') + '/subscribe';
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await t?.close();
});

/** The results of one subscription, until it completes or fails. */
function run(query: string): Promise<{ results: ExecutionResult[]; error?: unknown }> {
  const c = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
  clients.push(c);
  const results: ExecutionResult[] = [];
  return new Promise((done) => {
    c.subscribe({ query }, {
      next: (r) => results.push(r as ExecutionResult),
      error: (error) => done({ results, error }),
      complete: () => done({ results }),
    });
  });
}

const messages = (error: unknown) => (error as { message: string }[]).map((e) => e.message);

describe('docs/5-graphql/3-subscriptions.md', () => {
  it('query streaming: interval in seconds, count results, the results of /query', async () => {
    const { results, error } = await run('subscription { query(interval: 1, count: 2) { customers(order_by: [{field: "id"}], limit: 2) { id name } } }');
    expect(error).toBeUndefined();
    expect(results).toEqual([
      { data: { query: { customers: [{ id: 1, name: 'Alfreds' }, { id: 2, name: 'Bottom Dollar' }] } } },
      { data: { query: { customers: [{ id: 1, name: 'Alfreds' }, { id: 2, name: 'Bottom Dollar' }] } } },
    ]);
  });

  it('one-shot: without interval and count (or with interval 0) the query runs once and completes', async () => {
    const once = await run('subscription { query { customers(filter: {country: {eq: "Canada"}}) { id name } } }');
    expect(once.error).toBeUndefined();
    expect(once.results).toEqual([{ data: { query: { customers: [{ id: 2, name: 'Bottom Dollar' }] } } }]);
    const zero = await run('subscription { query(interval: 0, count: 5) { customers_aggregation { _rows_count } } }');
    expect(zero.error).toBeUndefined();
    expect(zero.results).toEqual([{ data: { query: { customers_aggregation: { _rows_count: 4 } } } }]);
  });

  it('several data objects in one subscription: each tick answers all of them', async () => {
    const { results, error } = await run(`subscription {
      query(interval: 1, count: 1) {
        customers(order_by: [{field: "id"}], limit: 1) { id name }
        orders(order_by: [{field: "id"}], limit: 2) { id status customer { name } }
      }
    }`);
    expect(error).toBeUndefined();
    expect(results).toHaveLength(1);
    expect(results[0]!.data).toEqual({
      query: {
        customers: [{ id: 1, name: 'Alfreds' }],
        orders: [{ id: 1, status: 'completed', customer: { name: 'Alfreds' } }, { id: 2, status: 'pending', customer: { name: 'Alfreds' } }],
      },
    });
  });

  it('native subscriptions (core.models, core.store) and a second root field are refused by name', async () => {
    const llm = await run('subscription { core { models { completion(model: "m", prompt: "hi") { content } } } }');
    expect(messages(llm.error)[0]).toMatch(/svc serves no native subscriptions/);
    const two = await run('subscription { query(interval: 5) { customers { id } } core { store { subscribe(store: "redis", channel: "events") { message } } } }');
    expect(two.results).toEqual([]);
    expect(messages(two.error)[0]).toMatch(/Anonymous Subscription must select only one top level field|one field/);
  });
});
