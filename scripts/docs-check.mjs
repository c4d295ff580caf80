#!/usr/bin/env node
// `npm run docs:check`: every example of README.md and docs/*.md marked runnable is run against a
// fresh server and compared with the answer the page shows (docs/operations.md "Documented examples"
// says how to mark one). The test suite runs the same checks (test/docs/examples.test.ts), one test
// per example, so CI runs them with `npm test`.
//
// Markers are HTML comments on the line before a fence (GitHub does not render them):
//   <!-- check setup=shop -->                         run the fence: graphql (POST /query), json (a
//                                                     /query body), sh (bash, localhost:15000 -> the server)
//   <!-- check answer -->                             the fence after a run: the expected JSON
//   <!-- check file=catalogs/x/schema.graphql setup=tutorial -->   write the fence into the setup's folder
// Attributes of a run: headers="name: value; name: value", variables='{"n": 1}', env="K=V K2=V2"
// (server environment of the setup), status=400 (expected HTTP status).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The value that matches anything in an expected answer (ids, times). */
export const VARIES = '<varies>';

/**
 * Setups the pages name. Each is one server, started on a free port in a fresh working directory
 * the first time an example needs it and shared by every example naming it, in page order.
 * `catalogs`: a folder of the repository copied as CATALOGS_DIR; `copy`: files of the repository put
 * in the working directory; a setup not listed here serves the files the pages write for it (`file=`).
 */
const SETUPS = {
  /** The quick start: `npm start` in a fresh clone. */
  shop: { catalogs: 'catalogs' },
  /** The README's own source.yaml and catalog, over the example's seed. */
  readme: { copy: { 'catalogs/shop/seed.sql': 'catalogs/shop/seed.sql' } },
  /** README "No catalog to write": a self-defined DuckDB source over the example's seed. */
  selfdef: { copy: { 'catalogs/shop/seed.sql': 'catalogs/mine/seed.sql' } },
  /** README's run-time registration: a PostgreSQL database with an orders table, named by SALES_PG. */
  registration: { prepare: salesDatabase },
  /** docs/multi-source.md's walk-through: examples/four-sources over PostgreSQL, MariaDB and the rates service. */
  'four-sources': { catalogs: 'examples/four-sources/catalogs', env: { SECRET_KEY: 'walk' }, prepare: fourSources },
  /** The quick start with the example extension module (README "Extending svc"). */
  reports: { catalogs: 'catalogs', env: { EXTENSIONS: join(REPO, 'examples', 'reports', 'reports.module.ts') } },
};

/** A throwaway PostgreSQL database on the test server, made by `sql`; returns its URL and how to drop it. */
async function pgDatabase(sql) {
  const { default: pg } = await import('pg');
  const name = `svc_docs_${randomBytes(4).toString('hex')}`;
  const pgUrl = process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  await db.query(sql);
  await db.end();
  return {
    url: url.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: pgUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

async function salesDatabase() {
  const db = await pgDatabase('CREATE TABLE orders (id int PRIMARY KEY, total float8); INSERT INTO orders VALUES (1, 9.5), (2, 120);');
  return { env: { SALES_PG: db.url }, cleanup: () => db.drop() };
}

/**
 * The walk-through's databases and REST service, as its page sets them up (throwaway databases on the
 * test servers: SVC_TEST_PG_URL, SVC_TEST_MYSQL_URL). Returns the server's environment and a cleanup.
 */
async function fourSources() {
  const mysql = await import('mysql2/promise');
  const example = join(REPO, 'examples', 'four-sources');
  const name = `svc_docs_four_${randomBytes(4).toString('hex')}`;
  const pgDb = await pgDatabase(readFileSync(join(example, 'setup-postgres.sql'), 'utf8'));
  const myUrl = new URL(process.env.SVC_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test');
  const my = await mysql.createConnection({ host: myUrl.hostname, port: Number(myUrl.port || 3306), user: decodeURIComponent(myUrl.username), password: decodeURIComponent(myUrl.password), multipleStatements: true });
  await my.query(`CREATE DATABASE ${name}`);
  await my.query(`USE ${name}`);
  await my.query(readFileSync(join(example, 'setup-mysql.sql'), 'utf8'));
  await my.end();
  myUrl.pathname = `/${name}`;
  const { startRatesService } = await import(join(example, 'rates-service.mjs'));
  const rates = await startRatesService();
  return {
    env: { FOUR_SOURCES_PG: pgDb.url, FOUR_SOURCES_MYSQL: myUrl.toString(), FOUR_SOURCES_REST: rates.url },
    async cleanup() {
      await rates.close();
      await pgDb.drop();
      const m = await mysql.createConnection({ host: myUrl.hostname, port: Number(myUrl.port || 3306), user: decodeURIComponent(myUrl.username), password: decodeURIComponent(myUrl.password) });
      await m.query(`DROP DATABASE IF EXISTS ${name}`);
      await m.end();
    },
  };
}

/** The pages checked, in the order their examples run. */
export function pages() {
  const docs = readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

function attributes(text) {
  const out = {};
  for (const m of text.matchAll(/([a-z_-]+)(?:=(?:"([^"]*)"|'([^']*)'|(\S+)))?/g)) out[m[1]] = m[2] ?? m[3] ?? m[4] ?? true;
  return out;
}

/** The marked fences of one page: runs (with their expected answers) and files, in order. */
export function examples(page) {
  const lines = readFileSync(join(REPO, page), 'utf8').split('\n');
  const found = [];
  let pending = null;
  for (let i = 0; i < lines.length; i++) {
    const marker = /^\s*<!--\s*check\b(.*?)-->\s*$/.exec(lines[i]);
    if (marker) {
      pending = { ...attributes(marker[1]), line: i + 1 };
      continue;
    }
    const fence = /^(\s*)(```+)(\w*)/.exec(lines[i]);
    if (!fence) continue;
    const body = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j].startsWith(`${fence[1]}${fence[2]}`); j++) body.push(lines[j].slice(fence[1].length));
    const text = body.join('\n');
    if (pending) {
      const at = `${page}:${pending.line}`;
      if (pending.answer) {
        const run = found.at(-1);
        if (!run || run.kind !== 'run' || run.answer !== undefined) throw new Error(`${at}: an answer must follow a run`);
        try {
          run.answer = JSON.parse(text);
        } catch (e) {
          throw new Error(`${at}: the answer is not JSON (${e.message})`);
        }
      } else if (pending.file) {
        if (!pending.setup) throw new Error(`${at}: file= needs setup=`);
        found.push({ kind: 'file', at, setup: pending.setup, file: pending.file, text: `${text}\n`, env: envOf(pending.env) });
      } else {
        if (!pending.setup) throw new Error(`${at}: a run needs setup=`);
        found.push({
          kind: 'run', at, page, setup: pending.setup, lang: fence[3] || 'graphql', text, env: envOf(pending.env),
          headers: headersOf(pending.headers), variables: pending.variables ? JSON.parse(pending.variables) : undefined,
          status: pending.status ? Number(pending.status) : 200, title: text.split('\n').find((l) => l.trim())?.trim().slice(0, 70) ?? '',
        });
      }
    }
    pending = null;
    i = j;
  }
  return found;
}

function envOf(text) {
  return Object.fromEntries((text ?? '').split(/\s+/).filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
}

function headersOf(text) {
  return Object.fromEntries((text ?? '').split(';').map((h) => h.trim()).filter(Boolean).map((h) => [h.slice(0, h.indexOf(':')).trim().toLowerCase(), h.slice(h.indexOf(':') + 1).trim()]));
}

function freePort() {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

/** The servers of the setups, started when first needed. */
export class Servers {
  constructor(all) {
    this.all = all;
    this.started = new Map();
  }

  get(name) {
    let s = this.started.get(name);
    if (!s) {
      s = this.start(name);
      this.started.set(name, s);
    }
    return s;
  }

  async start(name) {
    const dir = mkdtempSync(join(tmpdir(), `svc-docs-${name}-`));
    const catalogs = join(dir, 'catalogs');
    const known = SETUPS[name];
    if (known?.catalogs) cpSync(join(REPO, known.catalogs), catalogs, { recursive: true });
    else mkdirSync(catalogs, { recursive: true });
    for (const [from, to] of Object.entries(known?.copy ?? {})) cpSync(join(REPO, from), join(dir, to));
    const prepared = known?.prepare ? await known.prepare() : undefined;
    try {
      return { ...(await this.serve(name, dir, catalogs, known, prepared)), cleanup: prepared?.cleanup };
    } catch (e) {
      await prepared?.cleanup?.().catch(() => undefined);
      throw e;
    }
  }

  async serve(name, dir, catalogs, known, prepared) {
    const env = { ...(known?.env ?? {}), ...(prepared?.env ?? {}) };
    for (const e of this.all.filter((x) => x.setup === name)) {
      Object.assign(env, e.env);
      if (e.kind !== 'file') continue;
      const to = join(dir, e.file);
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, e.text);
    }
    const port = await freePort();
    const log = [];
    const child = spawn(process.execPath, [join(REPO, 'dist', 'src', 'main.js')], {
      cwd: dir,
      env: { ...process.env, BIND: `127.0.0.1:${port}`, CATALOGS_DIR: catalogs, CORE_DB_PATH: join(dir, 'data', 'core.duckdb'), CONFIG_FILE: '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (b) => log.push(String(b)));
    child.stderr.on('data', (b) => log.push(String(b)));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`setup "${name}": the server exited (${child.exitCode}):\n${log.join('').slice(-2000)}`);
      const ready = await fetch(`${url}/ready`).then((r) => r.json()).catch(() => null);
      if (ready && ready.status === 'ready' && Object.values(ready.sources ?? {}).every((v) => v === 'loaded')) break;
      if (Date.now() > deadline) throw new Error(`setup "${name}": not ready in 120 s (${JSON.stringify(ready)}):\n${log.join('').slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    return { url, dir, child, log };
  }

  async stop() {
    for (const s of this.started.values()) {
      const { child, dir, cleanup } = await s.catch(() => ({}));
      if (!child) continue;
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((done) => child.once('exit', done));
      }
      await cleanup?.();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** Runs one example; resolves with what the server answered (status and parsed body). */
export async function run(example, server) {
  if (example.lang === 'sh' || example.lang === 'bash') {
    const script = example.text.replaceAll('localhost:15000', server.url.replace('http://', ''));
    const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { cwd: server.dir, encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) return { status: r.status, body: { error: `exit ${r.status}: ${r.stderr}` } };
    return { status: 200, body: parseOr(r.stdout) };
  }
  if (/^\s*subscription\b/.test(example.text.replace(/^\s*#.*$/gm, ''))) return firstResult(example, server);
  const body = example.lang === 'json' ? JSON.parse(example.text) : { query: example.text, ...(example.variables ? { variables: example.variables } : {}) };
  const res = await fetch(`${server.url}/query`, { method: 'POST', headers: { 'content-type': 'application/json', ...example.headers }, body: JSON.stringify(body) });
  return { status: res.status, body: parseOr(await res.text()) };
}

/** A subscription: its first result over /subscribe (graphql-ws), the headers as connection parameters. */
async function firstResult(example, server) {
  const { createClient } = await import('graphql-ws');
  const { default: WebSocket } = await import('ws');
  const client = createClient({ url: `${server.url.replace('http', 'ws')}/subscribe`, webSocketImpl: WebSocket, connectionParams: example.headers, retryAttempts: 0, lazy: true });
  try {
    const body = await new Promise((done, fail) => {
      const stop = client.subscribe({ query: example.text, ...(example.variables ? { variables: example.variables } : {}) }, {
        next: (r) => (stop(), done(r)),
        error: (e) => fail(e instanceof Error ? e : new Error(JSON.stringify(e))),
        complete: () => done({ error: 'completed without a result' }),
      });
    });
    return { status: 200, body };
  } finally {
    await client.dispose();
  }
}

function parseOr(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text.trim();
  }
}

/**
 * Where `actual` differs from `expected` ('' when it matches). `<varies>` matches any value; only the
 * top-level keys the page shows are compared (`extensions` is usually left out); an expected error
 * object matches when the keys it shows match.
 */
export function difference(expected, actual, path = '', subset = false) {
  if (expected === VARIES) return actual === undefined ? `${path || 'answer'}: missing` : '';
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected a list, got ${JSON.stringify(actual)}`;
    if (expected.length !== actual.length) return `${path}: expected ${expected.length} items, got ${actual.length}: ${JSON.stringify(actual).slice(0, 400)}`;
    for (let i = 0; i < expected.length; i++) {
      const d = difference(expected[i], actual[i], `${path}[${i}]`, subset);
      if (d) return d;
    }
    return '';
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return `${path}: expected an object, got ${JSON.stringify(actual)}`;
    const keys = new Set(Object.keys(expected));
    if (!subset) for (const k of Object.keys(actual)) if (!keys.has(k)) return `${path}.${k}: not in the answer shown (${JSON.stringify(actual[k]).slice(0, 200)})`;
    for (const k of keys) {
      const d = difference(expected[k], actual[k], `${path}.${k}`, subset || (path === '' && k === 'errors'));
      if (d) return d;
    }
    return '';
  }
  return expected === actual ? '' : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

/** Checks one run's answer: the status, no errors unless shown, and the answer shown. */
export function verdict(example, got) {
  if (got.status !== example.status) return `HTTP ${got.status} (expected ${example.status}): ${JSON.stringify(got.body).slice(0, 600)}`;
  if (example.answer === undefined) {
    if (got.body && typeof got.body === 'object' && got.body.errors) return `errors: ${JSON.stringify(got.body.errors).slice(0, 600)}`;
    return '';
  }
  if (got.body && typeof got.body === 'object' && !Array.isArray(got.body) && example.answer && typeof example.answer === 'object' && !Array.isArray(example.answer)) {
    const shown = Object.fromEntries(Object.keys(example.answer).map((k) => [k, got.body[k]]));
    if (!('errors' in example.answer) && got.body.errors) return `errors: ${JSON.stringify(got.body.errors).slice(0, 600)}`;
    return difference(example.answer, shown);
  }
  return difference(example.answer, got.body);
}

/** Every example of every page, in order. */
export function allExamples() {
  return pages().flatMap((p) => examples(p));
}

async function main() {
  if (!existsSync(join(REPO, 'dist', 'src', 'main.js')) || process.argv.includes('--build')) {
    const b = spawnSync(process.execPath, [join(REPO, 'scripts', 'build.mjs')], { stdio: 'inherit', cwd: REPO });
    if (b.status !== 0) process.exit(1);
  }
  // `node scripts/docs-check.mjs docs/tutorial.md`: the examples of these pages only.
  const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const all = allExamples().filter((e) => !only.length || only.includes(e.at.slice(0, e.at.lastIndexOf(':'))));
  const servers = new Servers(all);
  let passed = 0;
  let failed = 0;
  try {
    for (const e of all.filter((x) => x.kind === 'run')) {
      let problem;
      try {
        problem = verdict(e, await run(e, await servers.get(e.setup)));
      } catch (err) {
        problem = err.message;
      }
      if (problem) failed++;
      else passed++;
      console.log(`${problem ? 'FAIL' : 'ok  '} ${e.at} [${e.setup}] ${e.title}${problem ? `\n     ${problem}` : ''}`);
    }
  } finally {
    await servers.stop();
  }
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
