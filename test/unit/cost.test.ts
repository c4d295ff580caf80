// The cost model of src/http/cost-limit.ts on the benchmark's own queries (issue 15 item 5): every
// `npm run bench` workload fits inside the default limits, with the figures the model gives.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getOperationAST, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileCatalog } from '../../src/catalog/compile.js';
import { loadConfig } from '../../src/config/load.js';
import { costError, measureRequest } from '../../src/http/cost-limit.js';
import { compileSchema } from '../../src/schema/service.js';
// @ts-expect-error: plain JavaScript module of the benchmark
import { CASES, variants } from '../../bench/lib/workloads.mjs';

const BENCH = join(import.meta.dirname, '..', '..', 'bench', 'catalogs');

describe('the benchmark inside the default limits', () => {
  const config = loadConfig({ env: {}, argv: [] });
  const limits = { maxCost: config.MAX_QUERY_COST, maxRootFields: config.MAX_ROOT_FIELDS, maxAliases: config.MAX_ALIASES };
  for (const [engine, folder, prefix] of [['duckdb', 'tpch_duck', 'duck'], ['postgres', 'tpch_pg', 'pg']] as const) {
    const catalog = compileCatalog({ name: folder, type: engine, prefix, asModule: false, readOnly: true }, [
      { file: `${folder}/schema.graphql`, text: readFileSync(join(BENCH, folder, 'schema.graphql'), 'utf8') },
    ]);
    const { schema } = compileSchema([catalog], []);
    for (const name of CASES as string[]) {
      for (const v of variants(engine, name) as { id: string; graphql: string }[]) {
        it(`${engine} ${v.id}`, () => {
          const document = parse(v.graphql);
          const cost = measureRequest(schema, document, getOperationAST(document)!);
          expect(costError(cost, limits)).toBeUndefined();
          expect(cost.cost).toBeGreaterThan(0);
        });
      }
    }
  }
});
