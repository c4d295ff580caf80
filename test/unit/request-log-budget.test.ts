// Issue 30: the request line is written at most LOG_REQUESTS_PER_SECOND times a second; the next
// line written counts the requests left out; failed requests (warn, error) are always written, except
// those a limit refused before they ran (issue 31), sampled in a budget of their own. A real Fastify server
// on loopback with the request-log hooks, writing JSON lines to a stream.
import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { RequestLineBudget, registerRequestLog } from '../../src/http/request-log.js';
import { createLogger } from '../../src/shared/logger.js';

describe('RequestLineBudget', () => {
  it('takes perSecond lines a second, then counts the rest into the next line written', () => {
    const b = new RequestLineBudget(2);
    expect([b.take(1000), b.take(1100), b.take(1200), b.take(1300)].map((t) => t.write)).toEqual([true, true, false, false]);
    expect(b.take(2000)).toEqual({ write: true, skipped: 2 });
    expect(b.take(2001)).toEqual({ write: true, skipped: 0 });
  });

  it('0 means every line', () => {
    const b = new RequestLineBudget(0);
    for (let i = 0; i < 1000; i++) expect(b.take(5000).write).toBe(true);
  });
});

describe('request lines above the rate', () => {
  let now = 0;
  async function server(perSecond: number) {
    const out = new PassThrough();
    const lines: Array<Record<string, unknown>> = [];
    let buf = '';
    out.on('data', (c: Buffer) => {
      buf += c.toString();
      const parts = buf.split('\n');
      buf = parts.pop()!;
      for (const p of parts) lines.push(JSON.parse(p));
    });
    const app = Fastify({ logger: false });
    registerRequestLog(app, createLogger('info', 'json', out), perSecond, () => now);
    app.get('/ok', async () => 'ok');
    app.get('/boom', async (_req, reply) => reply.code(500).send('no'));
    app.get('/bad', async (_req, reply) => reply.code(400).send('no'));
    // What /query does for a request a limit refused before it ran (src/http/query.route.ts, src/http/errors.ts).
    app.get('/refused', async (req, reply) => {
      req.svcScope!.refusedByLimit = true;
      return reply.code(400).send('over MAX_TOKENS');
    });
    app.get('/denied', async (_req, reply) => reply.code(401).send('no'));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    return { app, base, requests: () => lines.filter((l) => l.msg === 'request') };
  }

  it('writes at most the budget, always writes a failed request, and says how many it skipped', async () => {
    const s = await server(3);
    try {
      now = 10_000;
      for (let i = 0; i < 8; i++) expect((await fetch(`${s.base}/ok`)).status).toBe(200);
      expect((await fetch(`${s.base}/boom`)).status).toBe(500);
      expect((await fetch(`${s.base}/bad`)).status).toBe(400);
      const inSecond = s.requests();
      expect(inSecond.filter((l) => l.status === 200)).toHaveLength(3);
      expect(inSecond.filter((l) => l.status === 500)).toHaveLength(1);
      expect(inSecond.filter((l) => l.status === 400)).toHaveLength(1);
      now = 11_000;
      await fetch(`${s.base}/ok`);
      expect(s.requests().at(-1)).toMatchObject({ status: 200, path: '/ok', skipped: 5 });
    } finally {
      await s.app.close();
    }
  });

  it('samples requests refused by a limit in a budget of their own, at warn; 401 and other 4xx are always written', async () => {
    const s = await server(2);
    try {
      now = 20_000;
      for (let i = 0; i < 6; i++) expect((await fetch(`${s.base}/refused`)).status).toBe(400);
      for (let i = 0; i < 3; i++) expect((await fetch(`${s.base}/denied`)).status).toBe(401);
      for (let i = 0; i < 2; i++) await fetch(`${s.base}/ok`);
      const lines = s.requests();
      expect(lines.filter((l) => l.path === '/refused')).toHaveLength(2);
      expect(lines.filter((l) => l.path === '/refused').every((l) => l.level === 40)).toBe(true);
      expect(lines.filter((l) => l.path === '/denied')).toHaveLength(3);
      // The successes' budget is untouched by the refusals.
      expect(lines.filter((l) => l.path === '/ok')).toHaveLength(2);
      now = 21_000;
      await fetch(`${s.base}/refused`);
      expect(s.requests().at(-1)).toMatchObject({ status: 400, path: '/refused', skipped: 4, outcome: 'failed' });
    } finally {
      await s.app.close();
    }
  });

  it('0 writes every request, without a skipped field', async () => {
    const s = await server(0);
    try {
      for (let i = 0; i < 6; i++) await fetch(`${s.base}/ok`);
      expect(s.requests()).toHaveLength(6);
      expect(s.requests().some((l) => 'skipped' in l)).toBe(false);
    } finally {
      await s.app.close();
    }
  });
});
