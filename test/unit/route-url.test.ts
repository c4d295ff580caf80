// src/shared/route-url.ts reads the matched route from Fastify's route context instead of the
// `routeOptions` getter (a new object per access, issue 30). Fails if a Fastify version keeps the
// route elsewhere and the two disagree (the getter is the fallback).
import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { routeConfig, routeUrl } from '../../src/shared/route-url.js';

it("routeUrl and routeConfig agree with Fastify's routeOptions, 404s included", async () => {
  const app = Fastify();
  const seen: unknown[] = [];
  app.addHook('onRequest', (req, _reply, done) => {
    seen.push([routeUrl(req), req.routeOptions.url, routeConfig(req) === req.routeOptions.config]);
    done();
  });
  app.get('/reports/:id', { config: { marked: true } }, () => 'ok');
  app.post('/plain', () => 'ok');
  await app.inject({ method: 'GET', url: '/reports/7?x=1' });
  await app.inject({ method: 'POST', url: '/plain' });
  await app.inject({ method: 'GET', url: '/nowhere' });
  await app.close();
  expect(seen).toEqual([['/reports/:id', '/reports/:id', true], ['/plain', '/plain', true], [undefined, undefined, true]]);
});
