#!/usr/bin/env node
// The REST service of the four-source example: `GET /rates/{currency}` answers euros per unit.
// `node rates-service.mjs [port]` serves it on 127.0.0.1; tests import `startRatesService`.
import { createServer } from 'node:http';

const RATES = { EUR: 1, GBP: 1.17, USD: 0.92 };

/** Starts the service; `requests` lists every request it answered (method and path). */
export async function startRatesService(port = 0) {
  const requests = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const m = /^\/rates\/([A-Z]{3})$/.exec(req.url ?? '');
    const rate = m ? RATES[m[1]] : undefined;
    res.writeHead(rate === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(rate ?? { error: 'unknown currency' }));
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await startRatesService(Number(process.argv[2] ?? 15180));
  console.log(`rates service on ${s.url}`);
}
