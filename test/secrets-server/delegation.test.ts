import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Delegations, MAX_GRANTS } from '../../src/secrets-server/delegation.js';
import type { Identity } from '../../src/secrets-server/principals.js';
import { TestIdp } from './helpers/idp.js';
import { AUDIENCE, configDoc, EXCHANGE_CLIENT, secretBody, startServer, type Started } from './helpers/harness.js';
import { scanLogsAfterAll } from './helpers/leaks.js';
import { markSensitive } from './helpers/sensitive.js';

let idp: TestIdp;
let other: TestIdp;
let srv: Started;
let clock = Date.now();
const tok: Record<string, string> = {};

scanLogsAfterAll();

const service = (sub: string, azp: string, roles: string[] = []) => ({
  sub, aud: AUDIENCE, azp, client_type: 'service', realm_access: { roles },
});
const person = (sub: string, roles: string[]) => ({ sub, aud: AUDIENCE, email: `${sub}@example.com`, realm_access: { roles } });
const long = { expiresIn: 20 * 3600 };

beforeAll(async () => {
  idp = await TestIdp.start({ clients: { [EXCHANGE_CLIENT.id]: EXCHANGE_CLIENT.secret } });
  other = await TestIdp.start();
  srv = await startServer(
    configDoc([idp, other], {
      policy: {
        admins: ['role:admin'],
        actors: [
          { principal: 'client:query-svc', issuer: idp.issuer, verbs: ['use', 'update'] },
          { principal: 'client:pinned', issuer: other.issuer, verbs: ['use'] },
          { principal: 'client:manager', verbs: ['create', 'update', 'delete', 'annotate', 'grant'] },
        ],
      },
    }),
    { now: () => clock },
  );
  tok.actor = await idp.token(service('query-svc-1', 'query-svc', ['engine']), long);
  tok.actor2 = await idp.token(service('query-svc-2', 'query-svc', ['engine']), long);
  tok.pinned = await idp.token(service('pinned-1', 'pinned'), long);
  tok.manager = await idp.token(service('manager-1', 'manager'), long);
  tok.ann = await idp.token(person('ann', ['reader']), long);
  tok.carl = await idp.token(person('carl', ['reader']), long);
  tok.root = await idp.token(person('root', ['admin']), long);
  tok.etl = await idp.token(service('etl-1', 'etl'), long);
  const put = (name: string, params: Record<string, unknown>, grantTo?: string) =>
    srv.call('PUT', `/v1/secrets/${name}`, { token: tok.root, body: secretBody(params) }).then(() =>
      grantTo ? srv.call('PUT', `/v1/secrets/${name}/grants/g`, { token: tok.root, body: { principal: grantTo, verbs: ['use'] } }) : undefined,
    );
  await put('engine-creds', { token: 'mint+exchange://warehouse-api', user: 'mint+claim://email' }, 'role:engine');
  await put('ann-only', { k: 'v' }, 'role:reader');
  await put('hidden', { k: 'v' });
});
afterAll(async () => {
  await srv.close();
  await Promise.all([idp.close(), other.close()]);
});

async function exchange(actor: string, subjectToken: string, ttl?: unknown) {
  const r = await srv.call('POST', '/v1/delegations', { token: actor, body: { subject_token: subjectToken, ...(ttl === undefined ? {} : { ttl }) } });
  if (r.status === 201) markSensitive(r.json.id);
  return r;
}
const as = (actor: string, id: string, method: string, path: string, body?: unknown) =>
  srv.call(method, path, { token: actor, headers: { delegation: id }, ...(body === undefined ? {} : { body }) });

describe('exchange', () => {
  it('gives a listed actor a grant for a person, and a delegated read works end to end', async () => {
    const g = await exchange(tok.actor!, tok.ann!);
    expect(g.status).toBe(201);
    expect(g.json.id).toMatch(/^[0-9a-f]{64}$/);
    expect(g.json).toMatchObject({ subject: `subject:${idp.issuer}|ann`, actor: 'client:query-svc' });
    expect(Date.parse(g.json.expires_at) - clock).toBeCloseTo(3600_000, -3);
    const r = await as(tok.actor!, g.json.id, 'GET', '/v1/secrets/engine-creds');
    expect(r.status).toBe(200);
    expect(decodeJwt(r.json.params.token)).toMatchObject({ sub: 'ann', aud: 'warehouse-api' });
    expect(r.json.params.user).toBe('ann@example.com');
    const who = await as(tok.actor!, g.json.id, 'GET', '/v1/whoami');
    expect(who.json).toMatchObject({ subject: `subject:${idp.issuer}|ann`, actor: 'client:query-svc', permissions: { create: false } });
    expect(who.json.expires_at).toBe(g.json.expires_at);
  });

  it('refuses callers who are not listed actors, or whose issuer is not the pinned one', async () => {
    for (const t of [tok.ann!, tok.etl!, tok.pinned!]) {
      const r = await exchange(t, tok.ann!);
      expect(r.status).toBe(403);
      expect(r.json.type).toBe('actor_not_allowed');
    }
  });

  it('refuses bad subject tokens, service subject tokens and bad bodies', async () => {
    expect((await exchange(tok.actor!, await idp.token({ sub: 'x', aud: 'elsewhere' }))).status).toBe(401);
    expect((await exchange(tok.actor!, tok.etl!)).status).toBe(422);
    for (const body of [{}, { subject_token: tok.ann, ttl: -1 }, { subject_token: tok.ann, ttl: 1.5 }, { subject_token: tok.ann, ttl: '60' }, { subject_token: tok.ann, extra: 1 }]) {
      expect((await srv.call('POST', '/v1/delegations', { token: tok.actor, body })).status, JSON.stringify(Object.keys(body))).toBe(422);
    }
  });

  it('caps the ttl at 8 hours instead of overflowing', async () => {
    for (const ttl of [999_999_999_999, 8 * 3600 + 1]) {
      const g = await exchange(tok.actor!, tok.ann!, ttl);
      expect(Date.parse(g.json.expires_at) - clock).toBeCloseTo(8 * 3600_000, -3);
    }
    const huge = await srv.call('POST', '/v1/delegations', { token: tok.actor, raw: `{"subject_token":"${tok.ann}","ttl":1e400}` });
    markSensitive(huge.json.id);
    expect(Date.parse(huge.json.expires_at) - clock).toBeCloseTo(8 * 3600_000, -3);
    const short = await exchange(tok.actor!, tok.ann!, 60);
    expect(Date.parse(short.json.expires_at) - clock).toBeCloseTo(60_000, -3);
  });
});

describe('using a grant', () => {
  let id: string;
  beforeAll(async () => {
    id = (await exchange(tok.actor!, tok.ann!)).json.id;
  });

  it('binds the grant to the actor that exchanged it: stolen, unknown and malformed ids are all 401', async () => {
    const stolen = await as(tok.actor2!, id, 'GET', '/v1/secrets/engine-creds');
    expect(stolen.status).toBe(401);
    const byUser = await as(tok.ann!, id, 'GET', '/v1/secrets/ann-only');
    const unknown = await as(tok.actor!, 'f'.repeat(64), 'GET', '/v1/secrets/engine-creds');
    const malformed = await as(tok.actor!, 'not-a-grant', 'GET', '/v1/secrets/engine-creds');
    for (const r of [byUser, unknown, malformed]) expect([r.status, r.text]).toEqual([401, stolen.text]);
  });

  it('uses the actor\'s own grants only, and refuses the rest with actor_not_allowed', async () => {
    const own = await as(tok.actor!, id, 'GET', '/v1/secrets/ann-only');
    expect(own.status).toBe(403);
    expect(own.json.type).toBe('actor_not_allowed');
    expect((await as(tok.actor!, id, 'GET', '/v1/secrets/hidden')).status).toBe(404);
    const write = await as(tok.actor!, id, 'PUT', '/v1/secrets/new-one', secretBody({}));
    expect([write.status, write.json.type]).toEqual([403, 'actor_not_allowed']);
    const list = await as(tok.actor!, id, 'GET', '/v1/secrets');
    expect(list.json.map((d: { name: string; permissions: string[] }) => [d.name, d.permissions])).toEqual([['engine-creds', ['use']]]);
    const mng = await as(tok.actor!, id, 'DELETE', '/v1/delegations');
    expect([mng.status, mng.json.type]).toEqual([403, 'actor_not_allowed']);
  });

  it('lets an admin manage through an actor only with the verbs the actor lists', async () => {
    const g = (await exchange(tok.actor!, tok.root!)).json.id;
    expect((await as(tok.actor!, g, 'GET', '/v1/secrets/engine-creds')).status).toBe(200);
    expect((await as(tok.actor!, g, 'PUT', '/v1/secrets/engine-creds', secretBody({ token: 'mint+exchange://warehouse-api' }))).status).toBe(200);
    const create = await as(tok.actor!, g, 'PUT', '/v1/secrets/brand-new', secretBody({}));
    expect([create.status, create.json.type]).toEqual([403, 'actor_not_allowed']);
    const del = await as(tok.actor!, g, 'DELETE', '/v1/secrets/hidden');
    expect([del.status, del.json.type]).toEqual([403, 'actor_not_allowed']);

    const m = (await exchange(tok.manager!, tok.root!)).json.id;
    expect((await as(tok.manager!, m, 'GET', '/v1/whoami')).json.permissions).toEqual({ create: true });
    expect((await as(tok.manager!, m, 'PUT', '/v1/secrets/made-through-manager', secretBody({}))).status).toBe(201);
    const use = await as(tok.manager!, m, 'GET', '/v1/secrets/engine-creds');
    expect([use.status, use.json.type]).toEqual([403, 'actor_not_allowed']);

    const notAdmin = (await exchange(tok.manager!, tok.ann!)).json.id;
    const c = await as(tok.manager!, notAdmin, 'PUT', '/v1/secrets/nope', secretBody({}));
    expect([c.status, c.json.type]).toEqual([403, 'actor_not_allowed']);
  });
});

describe('revocation', () => {
  it('by id: the actor, the user or an admin; anyone else sees 404', async () => {
    for (const who of ['actor', 'ann', 'root'] as const) {
      const id = (await exchange(tok.actor!, tok.ann!)).json.id;
      expect((await srv.call('DELETE', `/v1/delegations/${id}`, { token: tok.carl })).status).toBe(404);
      expect((await srv.call('DELETE', `/v1/delegations/${id}`, { token: tok.actor2 })).status).toBe(404);
      expect((await srv.call('DELETE', `/v1/delegations/${id}`, { token: tok[who] })).status, who).toBe(204);
      expect((await as(tok.actor!, id, 'GET', '/v1/secrets/engine-creds')).status).toBe(401);
    }
  });

  it('by filters: admins by actor or subject, anyone for their own', async () => {
    for (const actor of ['client:query-svc', 'client:manager']) await srv.call('DELETE', `/v1/delegations?actor=${actor}`, { token: tok.root });
    const a = (await exchange(tok.actor!, tok.ann!)).json.id;
    const c = (await exchange(tok.actor!, tok.carl!)).json.id;
    const m = (await exchange(tok.manager!, tok.carl!)).json.id;
    const forbidden = await srv.call('DELETE', `/v1/delegations?subject=${encodeURIComponent(`subject:${idp.issuer}|carl`)}`, { token: tok.ann });
    expect(forbidden.status).toBe(403);
    const own = await srv.call('DELETE', '/v1/delegations', { token: tok.ann });
    expect(own.json).toEqual({ revoked: 1 });
    expect((await as(tok.actor!, a, 'GET', '/v1/whoami')).status).toBe(401);
    const bySubject = await srv.call('DELETE', `/v1/delegations?subject=${encodeURIComponent(`subject:${idp.issuer}|carl`)}&actor=client:manager`, { token: tok.root });
    expect(bySubject.json).toEqual({ revoked: 1 });
    expect((await as(tok.manager!, m, 'GET', '/v1/whoami')).status).toBe(401);
    expect((await as(tok.actor!, c, 'GET', '/v1/whoami')).status).toBe(200);
    const byActor = await srv.call('DELETE', '/v1/delegations?actor=client:query-svc', { token: tok.root });
    expect(byActor.json.revoked).toBeGreaterThanOrEqual(1);
    expect((await as(tok.actor!, c, 'GET', '/v1/whoami')).status).toBe(401);
    expect((await srv.call('DELETE', '/v1/delegations?actor=', { token: tok.root })).status).toBe(422);
    expect((await srv.call('DELETE', '/v1/delegations?who=x', { token: tok.root })).status).toBe(422);
  });

  it('logs delegation paths without the grant id', () => {
    const paths = srv.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request').map((l) => l.path as string);
    expect(paths).toContain('/v1/delegations/…');
    expect(paths.some((p) => /[0-9a-f]{64}/.test(p))).toBe(false);
  });

  it('logs a delegated request with the user as subject and the actor beside it', async () => {
    const id = (await exchange(tok.actor!, tok.ann!)).json.id;
    await as(tok.actor!, id, 'GET', '/v1/whoami');
    expect(JSON.parse(srv.lines.at(-1)!)).toMatchObject({
      path: '/v1/whoami', status: 200, subject: `subject:${idp.issuer}|ann`, actor: `subject:${idp.issuer}|query-svc-1`,
    });
  });
});

describe('time, sessions and outages', () => {
  it('ends a grant after its lifetime', async () => {
    const id = (await exchange(tok.actor!, tok.ann!, 120)).json.id;
    clock += 121_000;
    try {
      expect((await as(tok.actor!, id, 'GET', '/v1/whoami')).status).toBe(401);
    } finally {
      clock -= 121_000;
    }
  });

  it('renews from the refresh token while the session lives, then refuses', async () => {
    const id = (await exchange(tok.actor!, await idp.token(person('dora', []), long))).json.id;
    const first = await as(tok.actor!, id, 'GET', '/v1/secrets/engine-creds');
    expect(first.status).toBe(200);
    const refreshes = idp.refreshes;
    clock += 280_000;
    try {
      const renewed = await as(tok.actor!, id, 'GET', '/v1/secrets/engine-creds');
      expect(renewed.status).toBe(200);
      expect(idp.refreshes).toBe(refreshes + 1);
      expect(renewed.json.params.token).not.toBe(first.json.params.token);
      idp.sessionsEnded = true;
      clock += 280_000;
      const ended = await as(tok.actor!, id, 'GET', '/v1/secrets/engine-creds');
      expect([ended.status, ended.json.type]).toEqual([403, 'mint_refused']);
    } finally {
      idp.sessionsEnded = false;
      clock -= 560_000;
    }
  });

  it('survives an outage at exchange and mints from the kept user token later', async () => {
    const user = await idp.token(person('erin', []), long);
    idp.outage = true;
    let id: string;
    try {
      const g = await exchange(tok.actor!, user);
      expect(g.status).toBe(201);
      id = g.json.id;
      expect((await as(tok.actor!, id, 'GET', '/v1/secrets/engine-creds')).status).toBe(503);
    } finally {
      idp.outage = false;
    }
    const later = await as(tok.actor!, id, 'GET', '/v1/secrets/engine-creds');
    expect(later.status).toBe(200);
    expect(decodeJwt(later.json.params.token).sub).toBe('erin');
  });
});

describe('the grant table', () => {
  it(`holds at most ${MAX_GRANTS} grants`, () => {
    const table = new Delegations(() => Date.now());
    const user = { subject: 'subject:i|u' } as Identity;
    const actor = { principal: 'client:a', verbs: ['use'] };
    try {
      for (let i = 0; i < MAX_GRANTS; i++) table.create(user, false, actor, 'subject:i|a', 60);
      expect(table.size).toBe(MAX_GRANTS);
      expect(() => table.create(user, false, actor, 'subject:i|a', 60)).toThrow(/limit/);
      expect(table.revokeWhere({ actor: 'client:a' })).toBe(MAX_GRANTS);
    } finally {
      table.close();
    }
  });
});
