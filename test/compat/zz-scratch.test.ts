import { afterAll, beforeAll, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startNorthwind, writeSource } from './support.js';
let t: TestApp;
beforeAll(async () => {
  t = await startNorthwind({}, (dir) => writeSource(dir, 'lim', {
    'source.yaml': 'type: duckdb\npath: lim.duckdb\ncreate: true\nseed: seed.sql\n',
    'seed.sql': "CREATE TABLE items (id INTEGER PRIMARY KEY, owner INTEGER, v INTEGER); INSERT INTO items VALUES (1,1,10),(2,1,20),(3,2,30); CREATE MACRO items_of(o) AS TABLE SELECT id, v FROM items WHERE owner = o; CREATE MACRO n_items(o) AS (SELECT count(*) FROM items WHERE owner = o);",
    'schema.graphql': [
      'type item { id: Int v: Int }',
      'extend type Function {',
      '  items_of(owner: Int!): [item] @function(name: "items_of", is_table: true)',
      '  n_items(owner: Int!): BigInt @function(name: "n_items")',
      '}',
    ].join('\n'),
  }));
}, 60_000);
afterAll(() => t?.close());
it('probe', async () => {
  for (const q of ['{ function { core { data_source_status(name: "lim") } } }', '{ function { items_of(owner: 1) { id v } n_items(owner: 1) } }'])
    console.log(q, (await t.gql(q)).text);
});
