import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64url, exportSPKI, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestIdp } from './helpers/idp.js';
import { AUDIENCE, configDoc, startServer, type Started } from './helpers/harness.js';
import { scanLogsAfterAll } from './helpers/leaks.js';
import { markSensitive } from './helpers/sensitive.js';

let idp: TestIdp;
let slash: TestIdp;
let stranger: TestIdp;
let srv: Started;

scanLogsAfterAll();

beforeAll(async () => {
  idp = await TestIdp.start();
  slash = await TestIdp.start({ path: '/' });
  stranger = await TestIdp.start();
  srv = await startServer(configDoc([idp, slash]));
});
afterAll(async () => {
  await srv.close();
  await Promise.all([idp.close(), slash.close(), stranger.close()]);
});

const whoami = (token: string, scheme = 'Bearer') =>
  srv.call('GET', '/v1/whoami', { headers: { authorization: `${scheme} ${token}` } });

async function refused(token: string, why: string) {
  const r = await whoami(token);
  expect(r.status, why).toBe(401);
  expect(r.json.type, why).toBe('unauthenticated');
  expect(r.headers['www-authenticate']).toBe('Bearer');
  expect(r.text).not.toContain(token);
}

const enc = (o: unknown) => base64url.encode(JSON.stringify(o));
const claims = (extra: Record<string, unknown> = {}) => ({
  iss: idp.issuer, aud: AUDIENCE, sub: 'ann', exp: Math.floor(Date.now() / 1000) + 600, ...extra,
});

describe('token verification', () => {
  it('accepts RS256 and ES256 tokens of a configured issuer', async () => {
    expect((await whoami(await idp.token({ sub: 'ann', aud: AUDIENCE }))).status).toBe(200);
    expect((await whoami(await idp.token({ sub: 'ann', aud: AUDIENCE }, { alg: 'ES256' }))).status).toBe(200);
  });

  it('accepts the scheme in any case (RFC 9110 §11.1)', async () => {
    const t = await idp.token({ sub: 'ann', aud: AUDIENCE });
    expect((await whoami(t, 'bearer')).status).toBe(200);
    expect((await whoami(t, 'BEARER')).status).toBe(200);
    expect((await whoami(t, 'Basic')).status).toBe(401);
    expect((await srv.call('GET', '/v1/whoami')).status).toBe(401);
  });

  it('refuses alg none', async () => {
    await refused(markSensitive(`${enc({ alg: 'none', typ: 'JWT' })}.${enc(claims())}.`), 'alg none');
  });

  it('refuses HS256, signed with a secret or with the RSA public key', async () => {
    const secret = new TextEncoder().encode('a-shared-secret-of-enough-length-000');
    await refused(markSensitive(await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: 'rsa' }).sign(secret)), 'HS256 secret');
    const pem = new TextEncoder().encode(await exportSPKI(idp.rsaPublicKey));
    await refused(markSensitive(await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: 'rsa' }).sign(pem)), 'HS256 with the public key');
  });

  it('refuses expired tokens, tokens without exp, with a wrong aud, without sub', async () => {
    await refused(await idp.token({ sub: 'ann', aud: AUDIENCE }, { expiresIn: -120 }), 'expired');
    await refused(await idp.token({ sub: 'ann', aud: AUDIENCE }, { noExp: true }), 'no exp');
    await refused(await idp.token({ sub: 'ann', aud: 'someone-else' }), 'wrong aud');
    await refused(await idp.token({ sub: 'ann', aud: [`${AUDIENCE}x`, 'other'] }), 'aud list without ours');
    await refused(await idp.token({ aud: AUDIENCE }), 'no sub');
    await refused(await idp.token({ sub: '', aud: AUDIENCE }), 'empty sub');
  });

  it('refuses a forged iss and an issuer that is not configured', async () => {
    await refused(await stranger.token({ iss: idp.issuer, sub: 'ann', aud: AUDIENCE }), 'forged iss');
    await refused(await stranger.token({ sub: 'ann', aud: AUDIENCE }), 'unconfigured issuer');
  });

  it('compares iss verbatim: with and without a trailing slash, both ways', async () => {
    expect(slash.issuer.endsWith('/')).toBe(true);
    expect((await whoami(await slash.token({ sub: 'ann', aud: AUDIENCE }))).status).toBe(200);
    await refused(await slash.token({ iss: slash.issuer.slice(0, -1), sub: 'ann', aud: AUDIENCE }), 'slash configured, token without');
    await refused(await idp.token({ iss: `${idp.issuer}/`, sub: 'ann', aud: AUDIENCE }), 'no slash configured, token with');
  });

  it('refuses opaque tokens and garbage', async () => {
    await refused(markSensitive('opaque-access-token-0123456789'), 'opaque');
    await refused(markSensitive('a.b.c'), 'three dots of garbage');
  });
});

describe('principals', () => {
  it('takes roles and groups from claim paths; client only for services', async () => {
    const person = await idp.token({ sub: 'p', aud: AUDIENCE, azp: 'web', realm_access: { roles: ['r1', 'r2'] }, groups: 'g1' });
    expect((await whoami(person)).json.roles).toEqual(['role:r1', 'role:r2', 'group:g1']);
    const service = await idp.token({ sub: 's', aud: AUDIENCE, azp: 'etl', client_type: 'service' });
    expect((await whoami(service)).json.roles).toEqual(['client:etl']);
    const notService = await idp.token({ sub: 's', aud: AUDIENCE, azp: 'etl', client_type: 'person' });
    expect((await whoami(notService)).json.roles).toEqual([]);
  });

  it('reads a top-level claim whose name holds dots before a dotted path', async () => {
    const other = await TestIdp.start();
    const s = await startServer(configDoc([other], {}, { roles_claim: 'https://example.com/roles', client_claim: 'client_id', service: { claim: 'svc' } }));
    try {
      const t = await other.token({ sub: 'x', aud: AUDIENCE, 'https://example.com/roles': ['dotted'], svc: true, client_id: 'loader' });
      expect((await s.call('GET', '/v1/whoami', { token: t })).json.roles).toEqual(['role:dotted', 'client:loader']);
    } finally {
      await s.close();
      await other.close();
    }
  });
});

describe('issuer discovery', () => {
  it('remembers a failure for 5 s, then tries again', async () => {
    const down = await TestIdp.start();
    let clock = Date.now();
    const s = await startServer(configDoc([down]), { now: () => clock });
    try {
      const t = await down.token({ sub: 'x', aud: AUDIENCE });
      down.outage = true;
      expect((await s.call('GET', '/v1/whoami', { token: t })).status).toBe(503);
      const hits = down.requests;
      down.outage = false;
      const again = await s.call('GET', '/v1/whoami', { token: t });
      expect(again.status).toBe(503);
      expect(again.json.type).toBe('service_unavailable');
      expect(down.requests).toBe(hits);
      clock += 5_100;
      expect((await s.call('GET', '/v1/whoami', { token: t })).status).toBe(200);
    } finally {
      await s.close();
      await down.close();
    }
  });

  it('bounds discovery by a timeout', async () => {
    const hang: Server = createServer(() => {});
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    const issuer = `http://127.0.0.1:${(hang.address() as AddressInfo).port}`;
    const s = await startServer({ listen: '127.0.0.1:0', issuers: [{ issuer, audience: AUDIENCE }] }, { idpTimeoutMs: 200 });
    try {
      const token = markSensitive(`${enc({ alg: 'RS256', kid: 'k' })}.${enc({ ...claims(), iss: issuer })}.c2ln`);
      const started = Date.now();
      expect((await s.call('GET', '/v1/whoami', { token })).status).toBe(503);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await s.close();
      hang.closeAllConnections();
      await new Promise<void>((r) => hang.close(() => r()));
    }
  });

  it('refuses a key set served over plain http off loopback', async () => {
    const odd = await TestIdp.start();
    odd.jwksUriOverride = 'http://keys.example.com/jwks';
    const s = await startServer(configDoc([odd]));
    try {
      expect((await s.call('GET', '/v1/whoami', { token: await odd.token({ sub: 'x', aud: AUDIENCE }) })).status).toBe(503);
    } finally {
      await s.close();
      await odd.close();
    }
  });

  it('honours the issuer algorithms list', async () => {
    const ec = await TestIdp.start();
    const s = await startServer(configDoc([ec], {}, { algorithms: ['ES256'] }));
    try {
      expect((await s.call('GET', '/v1/whoami', { token: await ec.token({ sub: 'x', aud: AUDIENCE }, { alg: 'ES256' }) })).status).toBe(200);
      expect((await s.call('GET', '/v1/whoami', { token: await ec.token({ sub: 'x', aud: AUDIENCE }) })).status).toBe(401);
    } finally {
      await s.close();
      await ec.close();
    }
  });
});
