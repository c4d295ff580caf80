// GET and POST /query are registered on Fastify below Nest's router (src/http/query.route.ts, issue
// 30): they must ask the same access decision as SvcGuard's routes and answer every refusal as
// before. Each case fails if the route skips `admitRequest` (a refused caller would be served) or
// answers a refusal another way than the app's error filter (status, code, message, media type).
import { type CallHandler, type CanActivate, type ExecutionContext, type MiddlewareConsumer, Module, type NestInterceptor, type NestModule } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { tap } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { currentRequest, requestStorageOn } from '../../src/shared/request-scope.js';

let t: TestApp;
const ADMIN = { 'x-svc-secret-key': 'k' };
const as = (role: string) => ({ ...ADMIN, 'x-svc-role': role, 'x-svc-user-id': '1' });
const QUERY = '{ shop_tags(limit: 1) { id } }';

beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 'k', ANONYMOUS_ROLE: 'public' });
  const r = await t.gql(`mutation { core {
    a: insert_roles(data: {name: "no_query", description: "may not use /query", permissions: [{type_name: "_endpoints", field_name: "/query", disabled: true}]}) { name }
    b: insert_roles(data: {name: "gone", description: "disabled", disabled: true}) { name }
  } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
});
afterAll(() => t.close());

const post = (headers: Record<string, string>, payload = JSON.stringify({ query: QUERY })) => t.request({ method: 'POST', url: '/query', payload, headers: { 'content-type': 'application/json', ...headers } });
const get = (headers: Record<string, string>) => t.request({ method: 'GET', url: `/query?query=${encodeURIComponent(QUERY)}`, headers });

describe('the access decision on /query', () => {
  for (const [name, send] of [['POST', post], ['GET', get]] as const) {
    it(`${name}: an _endpoints row for /query refuses with 403, the same answer as a Nest route's`, async () => {
      const r = await send(as('no_query'));
      expect(r.status).toBe(403);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.body).toEqual({ data: null, extensions: {}, errors: [{ message: 'role "no_query" may not use /query', extensions: { code: 'FORBIDDEN' } }] });
      // The same role on a route behind SvcGuard is let in: the rule names /query alone.
      const ipc = await t.request({ method: 'POST', url: '/ipc', payload: JSON.stringify({ query: QUERY }), headers: { 'content-type': 'application/json', ...as('no_query') } });
      expect(ipc.status).not.toBe(403);
    });

    it(`${name}: a disabled role is 403, a wrong secret key and an unknown scheme are 401`, async () => {
      const gone = await send(as('gone'));
      expect([gone.status, gone.body.errors[0]]).toEqual([403, { message: 'role "gone" is unknown or disabled', extensions: { code: 'FORBIDDEN' } }]);
      const wrong = await send({ 'x-svc-secret-key': 'not-it' });
      expect([wrong.status, wrong.body.errors[0]]).toEqual([401, { message: 'invalid secret key', extensions: { code: 'UNAUTHENTICATED' } }]);
      const basic = await send({ authorization: 'Basic dTpw' });
      expect([basic.status, basic.body.errors[0]]).toEqual([401, { message: 'unsupported Authorization scheme', extensions: { code: 'UNAUTHENTICATED' } }]);
    });

    it(`${name}: anonymous and admin callers are served`, async () => {
      for (const h of [{}, ADMIN]) {
        const r = await send(h);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ data: { shop_tags: [{ id: 1 }] }, extensions: {} });
        expect(r.headers['x-request-id']).toBeTypeOf('string');
      }
    });
  }
});

// On Node 20 an entered AsyncLocalStorage runs promise hooks for every promise in the process: the
// prepared fast path takes its request's scope from the request context instead (issue 30,
// src/shared/request-scope.ts). Fails if /query enters the storage for a prepared request, or if the
// scope does not reach the executor (statement count, lineage and log lines would lose the request).
describe("the request's scope on /query", () => {
  it('a prepared request runs outside the AsyncLocalStorage with its scope in its context; Apollo requests run inside it', async () => {
    const seen: { scope?: string; stored?: string; on: boolean; role?: string }[] = [];
    const stop = t.runtime.executor.onFinished((s) => seen.push({ scope: s.scope?.id, stored: currentRequest()?.id, on: requestStorageOn(), role: s.scope?.role }));
    try {
      const query = JSON.stringify({ query: '{ shop_tags(limit: 2) { id } }' });
      for (const id of ['scope-1', 'scope-2', 'scope-3']) {
        const r = await post({ 'x-request-id': id }, query);
        expect([r.status, r.body.data.shop_tags.length, r.headers['x-request-id']]).toEqual([200, 2, id]);
      }
      expect(seen.map((x) => x.scope)).toEqual(['scope-1', 'scope-2', 'scope-3']);
      // The first is planned through Apollo, inside the storage; the next two are prepared, outside it.
      expect(seen[0]).toMatchObject({ stored: 'scope-1', on: true });
      expect(seen.slice(1).map((x) => [x.stored, x.on])).toEqual([[undefined, false], [undefined, false]]);
      expect(new Set(seen.map((x) => x.role))).toEqual(new Set(['public']));
      // Turned off again once no request is inside it.
      expect(requestStorageOn()).toBe(false);
    } finally {
      stop();
    }
  });
});

describe('refusals before the route runs, answered by the app as before', () => {
  it('a body that is not JSON is 400, a text/plain body 415, an unknown method 404', async () => {
    const bad = await post({}, '{"query": ');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(bad.body.errors[0].message).toMatch(/^malformed JSON body: invalid JSON/);
    const text = await t.request({ method: 'POST', url: '/query', payload: QUERY, headers: { 'content-type': 'text/plain' } });
    expect([text.status, text.body.errors[0]]).toEqual([415, { message: 'unsupported content type: send application/json', extensions: { code: 'BAD_REQUEST' } }]);
    const put = await t.app.getHttpAdapter().getInstance().inject({ method: 'PUT', url: '/query', payload: '{}', headers: { 'content-type': 'application/json' } });
    expect(put.statusCode).toBe(404);
    expect(JSON.parse(put.body).errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('a document over MAX_ALIASES is refused before parse with its code, message and location', async () => {
    const r = await post({}, JSON.stringify({ query: `{ ${Array.from({ length: 501 }, (_, i) => `a${i}: __typename`).join(' ')} }` }));
    expect(r.status).toBe(200);
    expect(r.body.data).toBeNull();
    expect(r.body.errors[0].message).toBe('the request uses more than 500 aliases, the limit of one request (MAX_ALIASES)');
    expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

// A team's global guard and interceptor are Nest's: registered, they must run on /query too, so /query
// is then served through Nest's router (src/http/global-enhancers.ts); middleware runs either way.
class Blocker implements CanActivate {
  canActivate(execution: ExecutionContext): boolean {
    return execution.switchToHttp().getRequest<FastifyRequest>().headers['x-team-block'] === undefined;
  }
}
const seen: string[] = [];
class Seen implements NestInterceptor {
  intercept(execution: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(tap(() => seen.push(execution.switchToHttp().getRequest<FastifyRequest>().url)));
  }
}
@Module({ providers: [{ provide: APP_GUARD, useClass: Blocker }, { provide: APP_INTERCEPTOR, useClass: Seen }] })
class TeamGuards {}
@Module({})
class TeamMiddleware implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply((_req: unknown, res: { setHeader(k: string, v: string): void }, next: () => void) => {
      res.setHeader('x-team-middleware', 'ran');
      next();
    }).forRoutes('*');
  }
}

describe("a team's global guard, interceptor and middleware on /query", () => {
  it('a global guard refuses and a global interceptor sees /query (GET and POST) through Nest', async () => {
    const app = await startApp({ SECRET_KEY: 'k' }, [TeamGuards]);
    try {
      const body = JSON.stringify({ query: QUERY });
      const blocked = await app.request({ method: 'POST', url: '/query', payload: body, headers: { 'content-type': 'application/json', 'x-team-block': '1' } });
      expect(blocked.status).toBe(403);
      const blockedGet = await app.request({ method: 'GET', url: `/query?query=${encodeURIComponent(QUERY)}`, headers: { 'x-team-block': '1' } });
      expect(blockedGet.status).toBe(403);
      const ok = await app.request({ method: 'POST', url: '/query', payload: body, headers: { 'content-type': 'application/json' } });
      expect([ok.status, ok.body]).toEqual([200, { data: { shop_tags: [{ id: 1 }] }, extensions: {} }]);
      expect(seen).toContain('/query');
      // svc's own access decision still runs first-class: a wrong key is 401.
      const wrong = await app.request({ method: 'POST', url: '/query', payload: body, headers: { 'content-type': 'application/json', 'x-svc-secret-key': 'no' } });
      expect(wrong.status).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('Nest middleware runs on /query served below Nest', async () => {
    const app = await startApp({}, [TeamMiddleware]);
    try {
      const r = await app.request({ method: 'POST', url: '/query', payload: JSON.stringify({ query: QUERY }), headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(200);
      expect(r.headers['x-team-middleware']).toBe('ran');
    } finally {
      await app.close();
    }
  });
});
