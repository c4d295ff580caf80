// The `duckdb` kind (SPEC §3.1): a DuckDB file (or :memory:) attached to the embedded engine.
import { substituteEnv } from '../../shared/env-placeholders.js';
import { duckdbKind } from '../column-types.js';
import { groupsByH3Cell, type SourceKind, type SourceSpec } from '../kind.js';
import { introspectDuckDb } from './introspect.js';
import { compiler, DuckDbSource } from './source.js';

/** `data/x.duckdb?create=true` -> the path and the opt-in to create the file. */
function duckPath(path: string, create: boolean): { path: string; create: boolean } {
  const m = /^(.*)\?create=(true|false)$/.exec(path);
  return m ? { path: m[1]!, create: m[2] === 'true' } : { path, create };
}

const open: SourceKind['open'] = (spec: SourceSpec, { engine }) =>
  DuckDbSource.attach(engine, { name: spec.name, ...duckPath(substituteEnv(spec.path ?? ''), !!spec.create), readOnly: !!spec.read_only, ...(spec.seedFile ? { seedFile: spec.seedFile } : {}) });

export const duckdb = {
  type: 'duckdb',
  open,
  compiler,
  /** From the runtime opened for the load, the loaded source, or the file attached read-only for the reading. */
  async introspect(spec, ctx, loaded) {
    if (loaded instanceof DuckDbSource) return introspectDuckDb(loaded, spec.name);
    const source = await open({ ...spec, read_only: true }, ctx);
    try {
      return await introspectDuckDb(source as DuckDbSource, spec.name);
    } finally {
      await source.close();
    }
  },
  capabilities: {
    catalog: { tableFunctions: true },
    h3: groupsByH3Cell(compiler),
    catalogOptional: false,
    extendsOthers: false,
    attachesFile: true,
    columns: {
      sql: 'SELECT column_name AS name, data_type AS type FROM information_schema.columns',
      columnOf: (r) => ({ type: String(r.type), kind: duckdbKind(String(r.type)) }),
      castsNaive: true,
    },
  },
} as const satisfies SourceKind<'duckdb'>;
