// The `mysql` kind (SPEC §3.1): a MySQL or MariaDB database.
import { substituteEnv } from '../../shared/env-placeholders.js';
import { mysqlKind } from '../column-types.js';
import { groupsByH3Cell, type SourceKind } from '../kind.js';
import { introspectMysql } from './introspect.js';
import { compiler, MysqlSource } from './source.js';

export const mysql = {
  type: 'mysql',
  open: (spec, { config }) =>
    MysqlSource.connect({
      name: spec.name, url: substituteEnv(spec.path ?? ''), readOnly: !!spec.read_only,
      maxConnections: config.DB_PG_CONNECTION_LIMIT, maxIdle: config.DB_MAX_IDLE_CONNS, statementTimeoutMs: config.QUERY_TIMEOUT, rows: config.SQL_ROWS,
    }),
  compiler,
  /** From the loaded source, or from a connection of its own that is closed after. */
  async introspect(spec, { config }, loaded) {
    if (loaded instanceof MysqlSource) return introspectMysql(loaded, spec.name);
    const source = await MysqlSource.connect({ name: spec.name, url: substituteEnv(spec.path ?? ''), readOnly: true, maxConnections: 1, statementTimeoutMs: config.QUERY_TIMEOUT });
    try {
      return await introspectMysql(source, spec.name);
    } finally {
      await source.close();
    }
  },
  capabilities: {
    catalog: { tableFunctions: true },
    h3: groupsByH3Cell(compiler),
    catalogOptional: false,
    extendsOthers: false,
    attachesFile: false,
    columns: {
      sql: 'SELECT column_name AS name, data_type AS type, column_type AS udt FROM information_schema.columns',
      columnOf: (r) => ({ type: String(r.udt), kind: mysqlKind(String(r.type), String(r.udt)) }),
      // Sessions read DATETIME in UTC already (src/sources/mysql/source.ts).
      castsNaive: false,
    },
  },
} as const satisfies SourceKind<'mysql'>;
