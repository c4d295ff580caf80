// A catalog error takes down its own source and nothing else (issue 32): sources next to a refused
// one keep serving; an extension over a refused source waits (suspended) and is applied as soon as
// the source loads; core.catalog shows the dependencies and the suspension.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';

let t: TestApp;
let dir: string;
const write = (name: string, file: string, text: string) => {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, file), text);
};
const GOOD_INVENTORY = 'type things @table(name: "things") {\n  id: Int! @pk\n  good_id: Int\n}\n';

beforeAll(async () => {
  dir = join(tempDir(), 'catalogs');
  write('good', 'source.yaml', 'type: duckdb\npath: good.duckdb\ncreate: true\nseed: seed.sql\nprefix: good\n');
  write('good', 'schema.graphql', 'type items @table(name: "items") {\n  id: Int! @pk\n  name: String\n}\n');
  write('good', 'seed.sql', "CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR); INSERT INTO items VALUES (1, 'Anvil'), (2, 'Bolt');");
  // Refused: a directive hugr does not have either.
  write('inv', 'source.yaml', 'type: duckdb\npath: inv.duckdb\ncreate: true\nseed: seed.sql\nprefix: inv\n');
  write('inv', 'schema.graphql', GOOD_INVENTORY.replace('@table(name: "things")', '@table(name: "things") @nope'));
  write('inv', 'seed.sql', 'CREATE TABLE things (id INTEGER PRIMARY KEY, good_id INTEGER); INSERT INTO things VALUES (10, 1), (11, 1);');
  // Over the refused source: waits for it.
  write('links', 'source.yaml', 'type: extension\n');
  write('links', 'schema.graphql', 'extend type good_items @dependency(name: "inv") {\n  things: [inv_things] @join(references_name: "inv_things", source_fields: ["id"], references_fields: ["good_id"])\n}\n');
  // Over the good source only: applied.
  write('labels', 'source.yaml', 'type: extension\n');
  write('labels', 'schema.graphql', 'extend type good_items @dependency(name: "good") {\n  label: String @sql(exp: "upper([name])")\n}\n');
  t = await startApp({ CATALOGS_DIR: dir });
}, 60_000);
afterAll(() => t?.close());

const status = async (name: string) => (await t.gql(`{ function { core { data_source_status(name: "${name}") } } }`)).body.data.function.core.data_source_status;
const catalogs = async () => (await t.gql(`{ core { catalog { catalogs(filter: {name: {in: ["good", "inv", "links", "labels"]}}, order_by: [{field: "name"}]) {
  name suspended disabled dependencies { depends_on } dependents { catalog } } } } }`)).body.data.core.catalog.catalogs;

describe('one refused source at start', () => {
  it('is the only source down: its neighbour and the extension over the neighbour serve', async () => {
    expect(await status('inv')).toMatch(/^failed: unknown directive "@nope"/);
    const r = await t.gql('{ good_items(order_by: [{field: "id"}]) { id label } }');
    expect(r.body).toEqual({ data: { good_items: [{ id: 1, label: 'ANVIL' }, { id: 2, label: 'BOLT' }] }, extensions: {} });
  });

  it('suspends the extension over it (loaded, not applied), shown in core.catalog', async () => {
    expect(await status('links')).toBe('loaded with 1 warning: not applied: waiting for "inv" to be loaded');
    expect((await t.gql('{ good_items { things { id } } }')).body.errors[0].message).toMatch(/Cannot query field "things"/);
    expect(await catalogs()).toEqual([
      // A catalog with no related rows has null for the list (SPEC §4.2).
      { name: 'good', suspended: false, disabled: false, dependencies: null, dependents: [{ catalog: 'labels' }] },
      { name: 'labels', suspended: false, disabled: false, dependencies: [{ depends_on: 'good' }], dependents: null },
      { name: 'links', suspended: true, disabled: false, dependencies: [{ depends_on: 'inv' }], dependents: null },
    ]);
  });

  it('applies the extension once the source is fixed and loaded, without a restart', async () => {
    write('inv', 'schema.graphql', GOOD_INVENTORY);
    const r = await t.gql('mutation { function { core { load_data_source(name: "inv") { success message } } } }');
    expect(r.body.data.function.core.load_data_source).toEqual({ success: true, message: 'data source "inv" loaded' });
    expect(await status('links')).toBe('loaded');
    const q = await t.gql('{ good_items(order_by: [{field: "id"}]) { id things(order_by: [{field: "id"}]) { id } } }');
    expect(q.body.data.good_items).toEqual([{ id: 1, things: [{ id: 10 }, { id: 11 }] }, { id: 2, things: null }]);
    const links = (await catalogs()).find((c: { name: string }) => c.name === 'links');
    expect(links.suspended).toBe(false);
    expect(links.dependencies).toEqual([{ depends_on: 'inv' }]);
  });

  it('suspends the extension while its dependency is unloaded at run time, and resumes it on load', async () => {
    const unload = await t.gql('mutation { function { core { unload_data_source(name: "inv") { success } } } }');
    expect(unload.body.data.function.core.unload_data_source.success).toBe(true);
    const off = (await catalogs()).find((c: { name: string }) => c.name === 'links');
    expect(off).toMatchObject({ suspended: true, dependencies: [{ depends_on: 'inv' }] });
    expect((await t.gql('{ good_items { things { id } } }')).body.errors[0].message).toMatch(/Cannot query field "things"/);
    await t.gql('mutation { function { core { load_data_source(name: "inv") { success } } } }');
    expect((await catalogs()).find((c: { name: string }) => c.name === 'links').suspended).toBe(false);
  });
});
