// The libraries a catalog may never use are loaded on their first use, not at start (issue 30: the
// started server's memory, docs/operations.md "Large answers"): geometry (turf, polyclip-ts, proj4,
// geographiclib, wkx), Apollo Studio's reporting plugins and their protobuf definitions, the OIDC
// browser login (openid-client), WebSockets (ws, graphql-ws: /subscribe and /ipc), the pretty log
// (pino-pretty) and @nestjs/graphql (only with a team's own modules). The loaded scripts are read
// from V8 itself (the inspector lists ES modules and CommonJS alike); each feature's own tests show
// it still works once loaded (test/e2e/geometry*, test/ipc, test/e2e/subscriptions, apollo-studio,
// oidc-login, extension-modules).
import { Session } from 'node:inspector/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

const LAZY = ['@turf/', 'polyclip-ts', 'proj4', 'geographiclib-geodesic', 'wkx', '@apollo/usage-reporting-protobuf', 'openid-client', 'oauth4webapi', 'ws', 'graphql-ws', 'pino-pretty', '@nestjs/graphql'];

/** The packages of node_modules whose scripts V8 has loaded so far. */
async function loadedPackages(): Promise<Set<string>> {
  const session = new Session();
  session.connect();
  const urls: string[] = [];
  session.on('Debugger.scriptParsed', (m) => urls.push(m.params.url));
  await session.post('Debugger.enable');
  await session.post('Debugger.disable');
  session.disconnect();
  const out = new Set<string>();
  for (const u of urls) {
    const rest = u.split('/node_modules/').at(-1)!;
    if (rest === u) continue;
    const parts = rest.split('/');
    out.add(parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
  }
  return out;
}

const lazyIn = (loaded: Set<string>) => [...loaded].filter((p) => LAZY.some((l) => (l.endsWith('/') ? p.startsWith(l) : p === l)));

describe('optional libraries', () => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it('are not loaded by a start with the example catalog, and load when a feature needs them', async () => {
    t = await startApp();
    const r = await t.gql('{ shop_stores(limit: 1) { name } }');
    expect(r.body.errors).toBeUndefined();
    const loaded = await loadedPackages();
    expect(loaded.has('fastify'), 'the inspector lists the loaded packages').toBe(true);
    expect(lazyIn(loaded)).toEqual([]);
    // A geometry value read: wkx (the geometry text codec) loads, and the answer is GeoJSON.
    const g = await t.gql('{ shop_stores(limit: 1) { location } }');
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.shop_stores[0].location.type).toBe('Point');
    expect(lazyIn(await loadedPackages())).toContain('wkx');
  });
});
