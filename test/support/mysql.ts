// A throwaway MySQL / MariaDB database per test file, on the server named by SVC_TEST_MYSQL_URL.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';

export const MYSQL_URL = process.env.SVC_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

export interface TestMysqlDatabase {
  readonly url: string;
  readonly name: string;
  exec(sql: string): Promise<void>;
  drop(): Promise<void>;
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function connect(url: string): Promise<mysql.Connection> {
  const u = new URL(url);
  return mysql.createConnection({
    host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password),
    database: u.pathname.slice(1) || undefined, multipleStatements: true, timezone: 'Z',
  });
}

/** A fresh database with a binary collation: string comparisons are case-sensitive, as elsewhere. */
export async function createMysqlDatabase(prefix = 'svc_test'): Promise<TestMysqlDatabase> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = await connect(MYSQL_URL);
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  await admin.end();
  const url = withDatabase(MYSQL_URL, name);
  return {
    url,
    name,
    async exec(sql: string) {
      const c = await connect(url);
      try {
        await c.query("SET time_zone = '+00:00'");
        await c.query(sql);
      } finally {
        await c.end();
      }
    },
    async drop() {
      const a = await connect(MYSQL_URL);
      await a.query(`DROP DATABASE IF EXISTS ${name}`);
      await a.end();
    },
  };
}
