// Apollo tooling (issue 20 item 5): usage and schema reporting through Apollo Server's own plugins
// to a receiver on loopback (only when APOLLO_KEY and APOLLO_GRAPH_REF are set), field-level traces
// that honour role permissions, automatic persisted queries, and the PERSISTED_QUERIES_ONLY safelist.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Report } from '@apollo/usage-reporting-protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, tempDir, type TestApp } from '../support/app.js';

const ADMIN = { 'x-svc-secret-key': 'k' };
const NO_EMAIL = { ...ADMIN, 'x-svc-role': 'no_email', 'x-svc-user-id': '3' };
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

interface Received {
  path: string;
  headers: Record<string, unknown>;
  body: Buffer;
}

/** Stands in for Apollo's ingress: keeps what it is sent, answers schema reports as Apollo does. */
async function receiver(): Promise<{ url: string; got: Received[]; close: () => Promise<void> }> {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      got.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.url === '/api/graphql') {
        const { variables } = JSON.parse(body.toString('utf8')) as { variables: { coreSchema: string | null } };
        // Apollo asks for the schema text once it does not know its hash.
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { reportSchema: { __typename: 'ReportSchemaResponse', inSeconds: variables.coreSchema === null ? 0 : 3600, withCoreSchema: variables.coreSchema === null } } }));
        return;
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, got, close: () => new Promise((r) => server.close(() => r())) };
}

const waitFor = async (what: () => boolean, ms = 20_000) => {
  const until = Date.now() + ms;
  while (!what()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('Apollo Studio reporting (APOLLO_KEY + APOLLO_GRAPH_REF)', () => {
  let recv: Awaited<ReturnType<typeof receiver>>;
  let t: TestApp;
  beforeAll(async () => {
    recv = await receiver();
    t = await startApp({
      SECRET_KEY: 'k', APOLLO_KEY: 'service:svc-test:not-a-real-key', APOLLO_GRAPH_REF: 'svc-test@current', APOLLO_FIELD_LEVEL_SAMPLING: '1',
      APOLLO_USAGE_REPORTING_URL: recv.url, APOLLO_SCHEMA_REPORTING_URL: `${recv.url}/api/graphql`,
    });
    const r = await t.gql(`mutation { core { insert_roles(data: {name: "no_email", permissions: [
      {type_name: "shop_customers", field_name: "email", hidden: true}
    ]}) { name } } }`, undefined, ADMIN);
    expect(r.body.errors).toBeUndefined();
  });
  afterAll(() => recv.close());

  it('reports the schema, and usage with field-level traces only where the role may see every field', async () => {
    const seen = await t.gql('{ shop_customers(order_by: [{field: "id"}], limit: 2) { id name } }', undefined, ADMIN);
    expect(seen.body.data.shop_customers).toHaveLength(2);
    // "email" is hidden from no_email: usable by name, absent from its schema.
    const hidden = await t.gql('{ shop_customers(order_by: [{field: "id"}], limit: 1) { id email } }', undefined, NO_EMAIL);
    expect(hidden.body.data.shop_customers[0].email).toMatch(/@/);
    // Schema reporting starts after a random delay of up to 10 s; usage reports go out when the server stops.
    await waitFor(() => recv.got.some((g) => g.path === '/api/graphql' && JSON.parse(g.body.toString()).variables.coreSchema));
    await t.close();
    await waitFor(() => recv.got.some((g) => g.path === '/api/ingress/traces'));

    const schemaReport = recv.got.filter((g) => g.path === '/api/graphql').map((g) => JSON.parse(g.body.toString()));
    expect(schemaReport[0].variables.report).toMatchObject({ graphRef: 'svc-test@current' });
    expect(schemaReport.at(-1).variables.coreSchema).toContain('shop_customers');
    expect(recv.got.every((g) => g.headers['x-api-key'] === 'service:svc-test:not-a-real-key')).toBe(true);

    const usage = recv.got.filter((g) => g.path === '/api/ingress/traces').map((g) => Report.decode(g.body));
    expect(usage[0]!.header?.graphRef).toBe('svc-test@current');
    const perQuery = Object.assign({}, ...usage.map((u) => u.tracesPerQuery));
    const keyOf = (field: string) => Object.keys(perQuery).find((k) => k.includes(field))!;
    const fieldsOf = (key: string): string[] => {
      const entry = perQuery[key];
      const fromStats = (entry.statsWithContext ?? []).flatMap((s: any) => Object.entries(s.perTypeStat ?? {}).flatMap(([type, t]: [string, any]) => Object.keys(t.perFieldStat ?? {}).map((f) => `${type}.${f}`)));
      // Trace nodes: fields (responseName, parentType) and list items (index) below them.
      const walk = (n: any): string[] => (n?.child ?? []).flatMap((c: any) => [...(c.responseName ? [`${c.parentType || 'Query'}.${c.responseName}`] : []), ...walk(c)]);
      const fromTraces = (entry.trace ?? []).flatMap((tr: any) => walk(tr.root));
      return [...fromStats, ...fromTraces];
    };
    const visible = keyOf('{id name}');
    const restricted = keyOf('{email id}');
    expect(visible).toBeDefined();
    expect(restricted).toBeDefined();
    expect(fieldsOf(visible)).toContain('shop_customers.name');
    // The operation is counted, but no field of it is reported for the role that cannot see one.
    expect(fieldsOf(restricted)).toEqual([]);
    expect(JSON.stringify(usage)).not.toContain('not-a-real-key');
  });
});

describe('without APOLLO_KEY nothing is reported', () => {
  it('a server with only a reporting URL sends nothing', async () => {
    const recv = await receiver();
    const t = await startApp({ APOLLO_USAGE_REPORTING_URL: recv.url, APOLLO_SCHEMA_REPORTING_URL: `${recv.url}/api/graphql`, APOLLO_FIELD_LEVEL_SAMPLING: '1' });
    expect((await t.gql('{ shop_tags { id } }')).body.data.shop_tags.length).toBeGreaterThan(0);
    await t.close();
    await new Promise((r) => setTimeout(r, 300));
    expect(recv.got).toEqual([]);
    await recv.close();
  });
});

describe('automatic persisted queries', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({});
  });
  afterAll(() => t.close());

  const post = (body: unknown) => t.request({ method: 'POST', url: '/query', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  it('a hash the server has not seen asks for the text; after it, the hash alone runs the operation', async () => {
    const query = '{ shop_tags_by_pk(id: 2) { name } }';
    const persistedQuery = { version: 1, sha256Hash: sha256(query) };
    const first = await post({ extensions: { persistedQuery } });
    expect(first.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const register = await post({ query, extensions: { persistedQuery } });
    expect(register.body.data).toEqual({ shop_tags_by_pk: { name: 'bestseller' } });
    const again = await post({ extensions: { persistedQuery } });
    expect(again.body.data).toEqual({ shop_tags_by_pk: { name: 'bestseller' } });
    const get = await t.request({ method: 'GET', url: `/query?extensions=${encodeURIComponent(JSON.stringify({ persistedQuery }))}` });
    expect(get.body.data).toEqual({ shop_tags_by_pk: { name: 'bestseller' } });
  });

  it('a hash that does not match the text is refused', async () => {
    const r = await post({ query: '{ shop_tags { id } }', extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ other }') } } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/sha does not match/);
  });
});

describe('PERSISTED_QUERIES_ONLY: an operation safelist', () => {
  const listed = 'query Tag($id: Int!) { shop_tags_by_pk(id: $id) { name } }';
  let t: TestApp;
  let manifest: string;
  beforeAll(async () => {
    const dir = tempDir();
    manifest = join(dir, 'persisted-query-manifest.json');
    writeFileSync(manifest, JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: 'tag-by-id', name: 'Tag', type: 'query', body: listed }] }));
    t = await startApp({ PERSISTED_QUERIES_ONLY: 'true', PERSISTED_QUERIES_MANIFEST: manifest, SVC_TEST_DIR: dir });
  });
  afterAll(() => t.close());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    t.request({ method: 'POST', url: '/query', payload: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

  it('runs a listed operation by its manifest id, by its hash, or as its exact text', async () => {
    for (const body of [
      { extensions: { persistedQuery: { version: 1, sha256Hash: 'tag-by-id' } }, variables: { id: 2 } },
      { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(listed) } }, variables: { id: 2 } },
      { query: listed, variables: { id: 2 } },
    ]) {
      const r = await post(body);
      expect(r.body, JSON.stringify(body)).toEqual({ data: { shop_tags_by_pk: { name: 'bestseller' } }, extensions: {} });
    }
  });

  it('refuses any other operation before running it, and cannot be taught a new one', async () => {
    const other = '{ shop_customers { email } }';
    for (const body of [
      { query: other },
      { query: `${listed} ` },
      { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(other) } } },
      { query: other, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(other) } } },
    ]) {
      const r = await post(body);
      expect(r.status, JSON.stringify(body)).toBe(200);
      expect(r.body.data).toBeNull();
      expect(r.body.errors[0]).toMatchObject({ message: expect.stringContaining('PERSISTED_QUERIES_ONLY'), extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } });
      expect(r.text).not.toContain('@example.com');
    }
    const retry = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256(other) } } });
    expect(retry.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
    const strict = await post({ query: other }, { accept: 'application/graphql-response+json' });
    expect(strict.status).toBe(400);
    const get = await t.request({ method: 'GET', url: `/query?query=${encodeURIComponent(other)}` });
    expect(get.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
  });

  it("refuses the client's own jq: /jq-query and the _jq variable", async () => {
    const jq = await t.request({ method: 'POST', url: '/jq-query', payload: JSON.stringify({ jq: '.', query: { query: listed, variables: { id: 2 } } }), headers: { 'content-type': 'application/json' } });
    expect(jq.status).toBe(403);
    expect(jq.body.error).toMatch(/PERSISTED_QUERIES_ONLY/);
    const variable = await post({ query: listed, variables: { id: 2, _jq: '{id: 3}' } });
    expect(variable.status).toBe(400);
    expect(variable.text).toMatch(/_jq/);
  });

  it('a missing manifest stops the start, naming the setting', async () => {
    await expect(startApp({ PERSISTED_QUERIES_ONLY: 'true' })).rejects.toThrow(/PERSISTED_QUERIES_MANIFEST/);
    await expect(startApp({ PERSISTED_QUERIES_ONLY: 'true', PERSISTED_QUERIES_MANIFEST: '/nonexistent/m.json' })).rejects.toThrow(/\/nonexistent\/m\.json/);
  });
});
