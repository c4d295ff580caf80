#!/usr/bin/env node
// `npm test`: checks that the services the suite talks to are up (and says how to start one that
// is not), then runs vitest and prints one closing line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
import mysql from 'mysql2/promise';
import pg from 'pg';

const PG_URL = process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.SVC_TEST_REDIS ?? '127.0.0.1:6379';
const MYSQL_URL = process.env.SVC_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

async function checkPostgres() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query("SELECT count(*)::int AS n FROM pg_available_extensions WHERE name = 'postgis'");
    if (!rows[0].n) return 'PostGIS is not installed on the PostgreSQL server (geometry tests need it).\n  Install it with: apt-get install -y postgresql-15-postgis-3';
  } catch (e) {
    const safe = PG_URL.replace(/:[^:@/]*@/, ':***@');
    return `PostgreSQL is not reachable at ${safe} (${e.message}).\n  Start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n  or point SVC_TEST_PG_URL at a server (PostGIS needed: apt-get install postgresql-15-postgis-3).`;
  } finally {
    await client.end().catch(() => {});
  }
  return null;
}

async function checkMysql() {
  const u = new URL(MYSQL_URL);
  try {
    const c = await mysql.createConnection({ host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), connectTimeout: 3000 });
    await c.end();
  } catch (e) {
    const safe = MYSQL_URL.replace(/:[^:@/]*@/, ':***@');
    return `MariaDB/MySQL is not reachable at ${safe} (${e.message}).\n  Start it with: service mariadb start (or mysqld_safe --bind-address=127.0.0.1 &)\n  or point SVC_TEST_MYSQL_URL at a server whose user may create databases.`;
  }
  return null;
}

function checkRedis() {
  const [host, port] = REDIS.split(':');
  return new Promise((resolve) => {
    const s = net.connect({ host, port: Number(port) }, () => s.write('PING\r\n'));
    s.setTimeout(3000, () => { s.destroy(); resolve(`Redis is not reachable at ${REDIS} (timeout).`); });
    s.on('data', () => { s.end(); resolve(null); });
    s.on('error', (e) => resolve(`Redis is not reachable at ${REDIS} (${e.message}).\n  Start it with: redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no\n  or point SVC_TEST_REDIS at a server (host:port).`));
  });
}

const problems = (await Promise.all([checkPostgres(), checkRedis(), checkMysql()])).filter(Boolean);
if (problems.length) {
  console.error(`npm test needs these services:\n${problems.join('\n')}`);
  process.exit(1);
}

// Some tests start the compiled server (dist/) as a user would; build it first (skipped when current).
const build = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
if (build.status !== 0) {
  console.error('npm test: the TypeScript build failed');
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

const report = join(mkdtempSync(join(tmpdir(), 'svc-vitest-')), 'report.json');
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const r = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, SVC_TEST_PG_URL: PG_URL, SVC_TEST_REDIS: REDIS, SVC_TEST_MYSQL_URL: MYSQL_URL } });
try {
  const j = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = j.numPendingTests + (j.numTodoTests ?? 0);
  // A file that fails before its tests run (a hook, an import) fails no test: count it as a failure too.
  const failedFiles = j.testResults.filter((f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed')).length;
  const failed = j.numFailedTests + failedFiles;
  console.log(`\n${j.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
} catch {
  console.log('\n0 passed, 1 failed');
}
process.exit(r.status ?? 1);
