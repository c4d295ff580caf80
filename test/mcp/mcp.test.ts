// /mcp (issue 28) through the SDK's own client over HTTP: the tools, resource and prompts as an
// admin and as a restricted role (API keys), nothing of a denied object in any answer, the limits
// of /query (MAX_DEPTH, QUERY_TIMEOUT, the answer budget), bad arguments answered as tool errors
// naming the argument, `_endpoints` rows, and the endpoint off unless MCP_ENABLED=true.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../support/app.js';
import { ADMIN, call, callJson, connect, type McpApp, startMcpApp } from './helpers.js';

let app: McpApp;
let admin: Client;
let analyst: Client;

beforeAll(async () => {
  app = await startMcpApp();
  admin = await connect(app.url, 'admin-key');
  analyst = await connect(app.url, 'analyst-key');
}, 60_000);

afterAll(async () => {
  await admin?.close();
  await analyst?.close();
  await app?.close();
});

/** The denied object, as a whole name: `shop_orders_since` (a view the analyst may read) is another object. */
const ORDERS = /shop_orders(?![_a-z])/;
const EMAIL = /\bemail\b/;

describe('tools', () => {
  it('lists the read tools (mutate only with MCP_ALLOW_MUTATIONS), the guide resource and two prompts', async () => {
    const { tools } = await admin.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['describe', 'field_values', 'query', 'search', 'validate']);
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(60);
      expect(t.inputSchema.type).toBe('object');
    }
    expect(tools.find((t) => t.name === 'query')!.inputSchema.required).toEqual(['query']);
    const { resources } = await admin.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['svc://guide']);
    const { prompts } = await admin.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['analyze', 'discover']);
  });

  it('search finds the shop\'s objects by the words of their descriptions, ranked', async () => {
    const people = await callJson(admin, 'search', { query: 'people who buy things', limit: 3 });
    expect(people.results[0]).toMatchObject({ kind: 'object', name: 'shop_customers', description: 'People who buy things.' });
    const orders = await callJson(admin, 'search', { query: 'orders', kinds: ['object'] });
    expect(orders.results.map((r: { name: string }) => r.name)).toContain('shop_orders');
    expect(orders.results.every((r: { kind: string }) => r.kind === 'object')).toBe(true);
    const types = await callJson(admin, 'search', { query: 'catalog types', kinds: ['object'] });
    expect(types.results.find((r: { name: string }) => r.name === 'core_catalog_types').next).toMatch(/\(query it as core \{ catalog \{ types \} \}\)$/);
    const none = await call(admin, 'search', { query: 'zebra giraffe' });
    expect(none.text).toMatch(/^nothing matched; try other words/);
  });

  it('describe gives fields, relations, filters, aggregations and an example that runs', async () => {
    const d = await callJson(admin, 'describe', { name: 'shop_customers' });
    expect(d).toMatchObject({ kind: 'object', name: 'shop_customers', description: 'People who buy things.', queries: { list: 'shop_customers', by_pk: 'shop_customers_by_pk' } });
    expect(d.fields.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['id', 'name', 'email', 'country', 'created_at']));
    expect(d.relations).toContainEqual(expect.objectContaining({ name: 'orders', object: 'shop_orders', many: true, description: 'Orders placed by this customer' }));
    expect(d.filter.operators.StringFilter).toEqual(expect.arrayContaining(['eq', 'in', 'like']));
    expect(d.aggregations.id).toMatch(/\bsum\b.*\bmin\b.*\bmax\b/);
    const rows = await callJson(admin, 'query', { query: d.example });
    expect(rows.shop_customers).toHaveLength(4);
    const agg = await callJson(admin, 'query', { query: d.aggregation_example });
    expect(agg.shop_customers_aggregation._rows_count).toBe(4);
    // A module and a function, by their dotted names.
    const m = await callJson(admin, 'describe', { name: 'core.catalog' });
    expect(m.objects.map((o: { name: string }) => o.name)).toContain('core_catalog_types');
    const f = await callJson(admin, 'describe', { name: 'shop_customers_in' });
    expect(f).toMatchObject({ kind: 'function', path: 'function.shop_customers_in', arguments: [{ name: 'country', type: 'String!' }] });
    expect((await callJson(admin, 'query', { query: f.example })).function.shop_customers_in).toEqual([]);
    const missing = await call(admin, 'describe', { name: 'shop_customer' });
    expect(missing).toMatchObject({ isError: true });
    expect(missing.text).toMatch(/^name: no object, function or module "shop_customer"; use search to find names \(did you mean .*"shop_customers"/);
  });

  it('field_values counts the values of a text field and ranges a time field', async () => {
    const countries = await callJson(admin, 'field_values', { object: 'shop_customers', field: 'country' });
    expect(countries.values[0]).toEqual({ value: 'GB', count: 2 });
    expect(countries.values.slice(1).map((v: { value: string }) => v.value).sort()).toEqual(['NL', 'US']);
    expect(countries.values.slice(1).map((v: { count: number }) => v.count)).toEqual([1, 1]);
    const top = await callJson(admin, 'field_values', { object: 'shop_customers', field: 'country', limit: 1 });
    expect(top.values).toEqual([{ value: 'GB', count: 2 }]);
    expect(top.note).toMatch(/more than 1 distinct values/);
    const when = await callJson(admin, 'field_values', { object: 'shop_orders', field: 'ordered_at' });
    expect(when).toMatchObject({ rows: 4, count: 4, distinct: 4, min: '2025-01-10T08:15:00Z', max: '2025-03-15T09:00:00Z' });
    const gb = await callJson(admin, 'field_values', { object: 'shop_customers', field: 'id', filter: { country: { eq: 'GB' } } });
    expect(gb).toMatchObject({ rows: 2, min: 1, max: 2, avg: 1.5 });
    const bad = await call(admin, 'field_values', { object: 'shop_customers', field: 'colour' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^field: "shop_customers" has no field "colour".*country/);
  });

  it('query runs GraphQL with variables and a jq program, as /query would answer it', async () => {
    const r = await call(admin, 'query', {
      query: 'query($c: String!) { shop_customers(filter: {country: {eq: $c}}, order_by: [{field: "id"}]) { id name orders_aggregation { _rows_count } } }',
      variables: { c: 'GB' },
      jq: '.data.shop_customers | map({name, orders: .orders_aggregation._rows_count})',
    });
    expect(r.isError, r.text).toBe(false);
    expect(JSON.parse(r.text)).toEqual([{ name: 'Ada Lovelace', orders: 2 }, { name: 'Alan Turing', orders: 1 }]);
    const direct = await app.t.gql('{ shop_customers(limit: 1) { name } }', undefined, { authorization: 'Bearer admin-key' });
    expect(await callJson(admin, 'query', { query: '{ shop_customers(limit: 1) { name } }' })).toEqual(direct.body.data);
    const jqBad = await call(admin, 'query', { query: '{ shop_customers { name } }', jq: '.data | map(' });
    expect(jqBad.isError).toBe(true);
    expect(jqBad.text).toMatch(/^jq: /);
    const mutation = await call(admin, 'query', { query: 'mutation { delete_shop_tags(filter: {id: {eq: 1}}) { affected_rows } }' });
    expect(mutation).toMatchObject({ isError: true });
    expect(mutation.text).toMatch(/the query tool runs queries only/);
    expect((await app.t.gql('{ shop_tags_by_pk(id: 1) { name } }', undefined, { authorization: 'Bearer admin-key' })).body.data.shop_tags_by_pk).toEqual({ name: 'classic' });
  });

  it('cuts a long answer to the row budget and says so', async () => {
    const r = await call(admin, 'query', { query: '{ shop_customers(order_by: [{field: "id"}]) { id } }', max_rows: 2 });
    expect(JSON.parse(r.parts[0]!)).toEqual({ shop_customers: [{ id: 1 }, { id: 2 }] });
    expect(r.parts[1]).toMatch(/^note: truncated: 1 list\(s\) cut to their first 2 item\(s\) \(the longest had 4\)/);
    const whole = await call(admin, 'query', { query: '{ shop_customers { id } }' });
    expect(whole.parts).toHaveLength(1);
  });

  it('validate reports errors with a location and the names the caller may use instead', async () => {
    const r = await call(admin, 'validate', { query: '{ shop_customers { nam } }' });
    expect(r).toMatchObject({ isError: true });
    expect(r.text).toBe('query: Cannot query field "nam" on type "shop_customers". Did you mean "name"? (line 1, column 20)');
    expect(await call(admin, 'validate', { query: '{ shop_customers { name } }' })).toMatchObject({ isError: false, text: 'valid' });
  });

  it('the guide resource and the prompts are built for the caller', async () => {
    const guide = await admin.readResource({ uri: 'svc://guide' });
    const text = (guide.contents[0] as { text: string }).text;
    expect(text).toMatch(/^# Querying svc/);
    expect(text).toMatch(/_bucket_aggregation/);
    const p = await admin.getPrompt({ name: 'analyze', arguments: { question: 'which customers ordered most' } });
    expect((p.messages[0]!.content as { text: string }).text).toMatch(/^Answer with data: which customers ordered most/);
  });
});

describe('as a restricted role', () => {
  /** Every answer the analyst can get about orders and e-mails, none of which may name them. */
  async function everything(client: Client): Promise<string[]> {
    const out: string[] = [];
    out.push(JSON.stringify(await client.listTools()));
    for (const q of ['orders', 'order', 'email', 'customer orders', 'people who buy things']) out.push((await call(client, 'search', { query: q, limit: 50 })).text);
    for (const n of ['shop_customers', 'shop_order_items', 'shop_orders_since', 'shop_customer_revenue', 'shop_order']) out.push((await call(client, 'describe', { name: n })).text);
    out.push((await call(client, 'field_values', { object: 'shop_customers', field: 'emal' })).text);
    out.push((await call(client, 'validate', { query: '{ shop_order { id } shop_customers { emai } }' })).text);
    out.push((await call(client, 'query', { query: '{ shop_order { id } }' })).text);
    out.push(JSON.stringify(await client.readResource({ uri: 'svc://guide' })));
    out.push(JSON.stringify(await client.getPrompt({ name: 'discover', arguments: { topic: 'orders' } })).replace(/topic|Find the data about: orders/g, ''));
    return out;
  }

  it('sees its own objects and fields only', async () => {
    const d = await callJson(analyst, 'describe', { name: 'shop_customers' });
    expect(d.fields.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['id', 'name', 'country']));
    expect(d.fields.map((f: { name: string }) => f.name)).not.toContain('email');
    expect(d.relations.map((r: { name: string }) => r.name)).not.toContain('orders');
    const rows = await callJson(analyst, 'query', { query: d.example });
    expect(rows.shop_customers).toHaveLength(4);
    expect(Object.keys(rows.shop_customers[0])).not.toContain('email');
  });

  it('never meets the denied object or the hidden field, in any tool\'s answer, suggestion or error', async () => {
    const seen = await everything(analyst);
    for (const text of seen) {
      expect(text).not.toMatch(ORDERS);
      expect(text).not.toMatch(EMAIL);
    }
    // The admin, asked the same, does meet them: the check above can fail.
    const adminSeen = (await everything(admin)).join('\n');
    expect(adminSeen).toMatch(ORDERS);
    expect(adminSeen).toMatch(EMAIL);
  });

  it('is answered about a denied object exactly as about one that does not exist', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['describe', { name: '§' }],
      ['field_values', { object: '§', field: 'status' }],
      ['query', { query: '{ § { id } }' }],
      ['validate', { query: '{ § { id } }' }],
    ];
    for (const [tool, args] of cases) {
      const ask = (name: string) => JSON.parse(JSON.stringify(args).replaceAll('§', name));
      const denied = await call(analyst, tool, ask('shop_orders'));
      const absent = await call(analyst, tool, ask('shop_zzzzzz'));
      expect([tool, denied.isError]).toEqual([tool, true]);
      // Suggestions depend on the name asked for (and are checked above); the rest is the same.
      const shape = (text: string, name: string) => text.replaceAll(name, '§').replace(/ \(did you mean [^)]*\)| Did you mean [^\n]*?\?/g, '');
      expect(shape(denied.text, 'shop_orders')).toBe(shape(absent.text, 'shop_zzzzzz'));
    }
    // The admin is told it exists.
    expect((await call(admin, 'field_values', { object: 'shop_orders', field: 'status' })).isError).toBe(false);
  });

  it('has no mutate tool and its role\'s row rules apply to what it reads', async () => {
    expect((await analyst.listTools()).tools.map((t) => t.name)).not.toContain('mutate');
    const rev = await callJson(analyst, 'query', { query: '{ shop_customer_revenue(order_by: [{field: "customer_id"}]) { customer_id revenue } }' });
    expect(rev.shop_customer_revenue.length).toBeGreaterThan(0);
  });
});

describe('the request pipeline', () => {
  it('runs with the caller\'s time zone (X-Svc-Timezone) and its role\'s row filters', async () => {
    const kolkata = new Client({ name: 'svc-test', version: '1.0.0' });
    await kolkata.connect(new StreamableHTTPClientTransport(new URL(app.url), { requestInit: { headers: { authorization: 'Bearer admin-key', 'x-svc-timezone': 'Asia/Kolkata' } } }));
    try {
      expect(await callJson(kolkata, 'query', { query: '{ shop_orders_by_pk(id: 3) { ordered_at } }' })).toEqual({ shop_orders_by_pk: { ordered_at: '2025-02-20T23:00:00+05:30' } });
    } finally {
      await kolkata.close();
    }
    // A role that reads GB customers only: the figures of field_values are its own.
    const r = await app.t.gql(`mutation { core { insert_roles(data: {name: "gb", description: "GB customers", permissions: [
      {type_name: "data-object:query", field_name: "shop_customers", filter: {country: {eq: "GB"}}}
    ]}) { name } insert_api_keys(data: {name: "gb", description: "", key: "gb-key", default_role: "gb"}) { name } } }`, undefined, ADMIN);
    expect(r.body.errors).toBeUndefined();
    const gb = await connect(app.url, 'gb-key');
    try {
      expect((await callJson(gb, 'field_values', { object: 'shop_customers', field: 'country' })).values).toEqual([{ value: 'GB', count: 2 }]);
      expect((await callJson(admin, 'field_values', { object: 'shop_customers', field: 'country' })).values).toHaveLength(3);
    } finally {
      await gb.close();
    }
  });

  it('applies MAX_DEPTH and the other limits of /query', async () => {
    const deep = '{ shop_customers { orders { customer { orders { customer { orders { customer { orders { id } } } } } } } } }';
    const r = await call(admin, 'query', { query: deep });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/depth/i);
  });

  it('stops a statement at QUERY_TIMEOUT and answers a tool error naming the limit', async () => {
    const r = await call(admin, 'query', { query: '{ slow_crunch { n } }' });
    expect(r.isError, r.text).toBe(true);
    expect(r.text).toMatch(/QUERY_TIMEOUT/);
    expect(await callJson(admin, 'query', { query: '{ shop_tags(limit: 1) { id } }' })).toEqual({ shop_tags: [{ id: 1 }] });
  });

  it('answers bad arguments with a tool error naming the argument', async () => {
    const missing = await call(admin, 'query', {});
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/query/);
    const wrongType = await call(admin, 'field_values', { object: 'shop_customers', field: 'country', limit: 0 });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.text).toMatch(/limit/);
    const kinds = await call(admin, 'search', { query: 'x', kinds: ['tables'] });
    expect(kinds.isError).toBe(true);
    expect(kinds.text).toMatch(/kinds/);
  });

  it('identifies the caller as /query does: no credentials 401, a bad key 401, an _endpoints row 403', async () => {
    const post = (headers: Record<string, string>) => fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer nope' })).status).toBe(401);
    const blocked = await post({ authorization: 'Bearer blocked-key' });
    expect(blocked.status).toBe(403);
    expect((await blocked.json()).errors[0]).toEqual({ message: 'role "blocked" may not use /mcp', extensions: { code: 'FORBIDDEN' } });
    await expect(connect(app.url, 'blocked-key')).rejects.toThrow();
    expect((await fetch(app.url, { method: 'GET' })).status).toBe(405);
  });
});

describe('MCP_ENABLED', () => {
  it('is off by default: /mcp is not served', async () => {
    const t = await startApp();
    try {
      const r = await t.request({ method: 'POST', url: '/mcp', payload: '{}', headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
