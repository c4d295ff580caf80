// The `postgres` kind (SPEC §3.1): a PostgreSQL database, one schema of it (`?schema=`).
import { substituteEnv } from '../../shared/env-placeholders.js';
import { postgresKind } from '../column-types.js';
import { groupsByH3Cell, type SourceKind } from '../kind.js';
import { introspect } from './introspect.js';
import { compiler, PostgresSource } from './source.js';

export const postgres = {
  type: 'postgres',
  open: (spec, { config }) =>
    PostgresSource.connect({
      name: spec.name, url: substituteEnv(spec.path ?? ''), readOnly: !!spec.read_only,
      maxConnections: config.DB_PG_CONNECTION_LIMIT, maxIdle: config.DB_MAX_IDLE_CONNS, statementTimeoutMs: config.QUERY_TIMEOUT, rows: config.SQL_ROWS,
    }),
  compiler,
  /** The schema in its path, from the loaded source or a connection of its own. */
  introspect(spec, _ctx, loaded) {
    const url = substituteEnv(spec.path ?? '');
    return introspect(loaded instanceof PostgresSource ? loaded : url, new URL(url).searchParams.get('schema') ?? 'public', spec.name);
  },
  capabilities: {
    catalog: { tableFunctions: true },
    h3: groupsByH3Cell(compiler),
    catalogOptional: false,
    extendsOthers: false,
    attachesFile: false,
    columns: {
      sql: 'SELECT column_name AS name, data_type AS type, udt_name AS udt, numeric_scale AS scale FROM information_schema.columns',
      columnOf(r) {
        const [dataType, udt] = [String(r.type), String(r.udt)];
        // data_type says `ARRAY` or `USER-DEFINED` where udt_name has the type itself.
        const shown = dataType === 'ARRAY' ? `${udt.slice(1)}[]` : dataType === 'USER-DEFINED' ? udt : dataType;
        return { type: shown, kind: postgresKind(udt, r.scale === null || r.scale === undefined ? null : Number(r.scale)) };
      },
      castsNaive: true,
    },
    otelName: 'postgresql',
  },
} as const satisfies SourceKind<'postgres'>;
