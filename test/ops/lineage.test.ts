// Lineage (SPEC §14, seed 000 svc_acl facet): each statement sends an OpenLineage RunEvent to a
// receiver that runs here on loopback; a dead or stuck receiver never holds up or fails a query.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEvent } from '../../src/lineage/events.js';
import { RequestScope } from '../../src/shared/request-scope.js';
import { startApp, type TestApp } from '../support/app.js';
import { freePort } from '../support/server.js';
import { writeConfig } from '../auth/helpers/config.js';

const JWT_SECRET = 'a-shared-secret-of-at-least-32-bytes!!';
const ISSUER = 'https://id.example.test';

interface Receiver {
  readonly url: string;
  readonly events: any[];
  readonly authorizations: (string | undefined)[];
  /** Requests the receiver holds without answering (a stuck receiver). */
  readonly held: ServerResponse[];
  hold: boolean;
  waitFor(n: number): Promise<any[]>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const waiters: { n: number; done: () => void }[] = [];
  const r: Receiver = {
    url: '',
    events: [],
    authorizations: [],
    held: [],
    hold: false,
    waitFor: (n) => (r.events.length >= n ? Promise.resolve(r.events) : new Promise((done) => waiters.push({ n, done: () => done(r.events) }))),
    close: () => new Promise((done) => {
      for (const res of r.held) res.destroy();
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (r.hold) return void r.held.push(res);
      if (req.method !== 'POST' || req.url !== '/api/v1/lineage') return void res.writeHead(404).end();
      r.authorizations.push(req.headers.authorization);
      r.events.push(JSON.parse(body));
      res.writeHead(201).end();
      for (const w of [...waiters]) if (r.events.length >= w.n) (waiters.splice(waiters.indexOf(w), 1), w.done());
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  (r as { url: string }).url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return r;
}

const token = (sub: string) =>
  new SignJWT({ role: 'admin' }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuer(ISSUER).setExpirationTime('5m').sign(new TextEncoder().encode(JWT_SECRET));

async function metric(t: TestApp, outcome: string): Promise<number> {
  const text = (await t.request({ method: 'GET', url: '/metrics' })).text;
  return Number(new RegExp(`^svc_lineage_events_total\\{outcome="${outcome}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
}

describe('with a receiver', () => {
  let receiver: Receiver;
  let t: TestApp;
  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startApp({
      CONFIG_FILE: writeConfig({ auth: { jwt: { secret: JWT_SECRET, algorithm: 'HS256', issuer: ISSUER } } }),
      OPENLINEAGE_URL: receiver.url,
      OPENLINEAGE_API_KEY: 'lineage-key',
      ACL_LINEAGE_IDENTITY: 'subject',
      ACL_LINEAGE_MAX_EDGES: '2',
      NODE_GROUP: 'blue',
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('sends a RunEvent per statement with inputs, the SQL and the svc_acl facet', async () => {
    const before = receiver.events.length;
    const r = await t.request({
      method: 'POST',
      url: '/query',
      payload: JSON.stringify({ query: 'query Orders($s: String) { shop_orders(limit: 1, filter: {status: {eq: $s}}) { id customer { name } } }', variables: { s: 'shipped-and-secret' } }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await token('user-7')}`, 'x-request-id': 'lineage-1' },
    });
    expect(r.status).toBe(200);
    const [e] = (await receiver.waitFor(before + 1)).slice(before);
    expect(receiver.authorizations.at(-1)).toBe('Bearer lineage-key');
    expect(e).toMatchObject({
      eventType: 'COMPLETE',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
      job: { namespace: 'svc', name: 'shop.Orders' },
      outputs: [],
      run: {
        runId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        facets: {
          svc_acl: { client: 'gateway', issuer: ISSUER, roles: ['admin'], subject: 'user-7', node_group: 'blue', approximate: false, truncated: false },
          svc_request: { request_id: 'lineage-1', operation: 'Orders' },
        },
      },
    });
    expect(e.inputs.map((d: any) => d.name).sort()).toEqual(['main.customers', 'main.orders']);
    expect(e.inputs[0].namespace).toMatch(/^duckdb:\/\/\/.*\/data\/shop\.duckdb$/);
    expect(e.job.facets.sql.query).toMatch(/^SELECT /);
    expect(JSON.stringify(e)).not.toContain('shipped-and-secret');
    expect(Date.parse(e.eventTime)).not.toBeNaN();
  });

  it('names the written table as output, and cuts datasets at ACL_LINEAGE_MAX_EDGES', async () => {
    const before = receiver.events.length;
    // Anonymous callers are admin by default (ANONYMOUS_ROLE).
    const w = await t.gql('mutation Add { insert_shop_tags(data: {id: 77, name: "lineage"}) { id } }');
    expect(w.body.errors).toBeUndefined();
    const wide = await t.gql('query Wide { shop_order_items(limit: 1) { line order { id customer { name } } } }');
    expect(wide.body.errors).toBeUndefined();
    await expect.poll(() => receiver.events.slice(before).some((e) => e.job.name === 'shop.Wide')).toBe(true);
    const events = receiver.events.slice(before);
    const add = events.find((e) => e.job.name === 'shop.Add' && e.outputs.length);
    expect(add.outputs).toEqual([{ namespace: expect.stringMatching(/^duckdb:/), name: 'main.tags' }]);
    expect(add.run.facets.svc_acl).toMatchObject({ client: 'gateway', roles: ['admin'], truncated: false });
    expect(add.run.facets.svc_acl.subject).toBeUndefined();
    const cut = events.find((e) => e.job.name === 'shop.Wide');
    expect(cut.inputs).toHaveLength(2);
    expect(cut.run.facets.svc_acl.truncated).toBe(true);
  });
});

describe('svc_acl identity', () => {
  it('names the subject only when ACL_LINEAGE_IDENTITY is subject', () => {
    const scope = new RequestScope('r-1');
    scope.identified({ role: 'analyst', userId: 'sub-1', authType: 'jwt', provider: ISSUER });
    const statement = { runtime: { name: 'src' } as never, stmt: { sql: 'SELECT 1', params: [], lineage: { reads: [['t']], writes: [], approximate: true } }, startedAt: Date.now(), ms: 1 };
    const options = { namespace: 'svc', maxEdges: 4096, nodeGroup: '' };
    const roles = runEvent(statement, scope, { ...options, identity: 'roles' }) as any;
    expect(roles.run.facets.svc_acl).toEqual({ _producer: 'urn:svc:query-service', _schemaURL: 'urn:svc:facets:svc_acl:1-0-0', client: 'gateway', issuer: ISSUER, roles: ['analyst'], approximate: true, truncated: false });
    expect((runEvent(statement, scope, { ...options, identity: 'subject' }) as any).run.facets.svc_acl.subject).toBe('sub-1');
    expect((runEvent(statement, undefined, { ...options, identity: 'subject' }) as any).run.facets.svc_acl).toMatchObject({ client: 'operator' });
  });
});

describe('a receiver that is down or stuck', () => {
  it('costs the query nothing but a counter', async () => {
    const closed = await freePort();
    const t = await startApp({ OPENLINEAGE_URL: `http://127.0.0.1:${closed}`, OPENLINEAGE_TIMEOUT: '300ms' });
    try {
      const failed = await metric(t, 'failed');
      const dropped = await metric(t, 'dropped');
      const ask = async () => expect((await t.gql('{ shop_tags(limit: 1) { id } }')).body).toEqual({ data: { shop_tags: [{ id: 1 }] }, extensions: {} });
      await ask();
      await expect.poll(() => metric(t, 'failed')).toBe(failed + 1);
      // The first failure rests the emitter (1 s): the events of the next queries are dropped without a
      // connection. Sent together, so a loaded machine does not outlast the rest between them; should it
      // all the same, each event must still be either dropped or failed, never waited for.
      const started = Date.now();
      await Promise.all([ask(), ask(), ask(), ask()]);
      const took = Date.now() - started;
      if (took < 900) {
        expect(await metric(t, 'failed')).toBe(failed + 1);
        expect(await metric(t, 'dropped')).toBeGreaterThanOrEqual(dropped + 4);
      } else {
        await expect.poll(async () => (await metric(t, 'failed')) + (await metric(t, 'dropped'))).toBeGreaterThanOrEqual(failed + dropped + 5);
      }
    } finally {
      await t.close();
    }
  });

  it('does not hold a query while the receiver does not answer', async () => {
    const receiver = await startReceiver();
    receiver.hold = true;
    const t = await startApp({ OPENLINEAGE_URL: receiver.url, OPENLINEAGE_TIMEOUT: '10s' });
    try {
      const first = await t.gql('{ shop_tags(limit: 1) { id } }');
      expect(first.status).toBe(200);
      await expect.poll(() => receiver.held.length).toBe(1);
      // The receiver still holds the first event; the next query answers all the same.
      const second = await t.gql('{ shop_tags(limit: 2) { id } }');
      expect(second.body.data.shop_tags).toHaveLength(2);
      expect(receiver.held.length).toBeGreaterThanOrEqual(1);
      expect(receiver.events).toHaveLength(0);
    } finally {
      await receiver.close();
      await t.close();
    }
  });
});
