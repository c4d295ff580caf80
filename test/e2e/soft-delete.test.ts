// Soft delete (SPEC §3.3 @table(soft_delete...)): delete marks rows, reads skip them everywhere,
// @with_deleted shows them.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURES, startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
  const file = join(t.dir, 'notes.duckdb');
  await t.runtime.engine.exec(`ATTACH '${file}' AS notes_setup;
    CREATE TABLE notes_setup.authors (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL);
    CREATE TABLE notes_setup.notes (id INTEGER PRIMARY KEY, body VARCHAR NOT NULL, author_id INTEGER, deleted_at TIMESTAMPTZ);
    INSERT INTO notes_setup.authors VALUES (1, 'ann');
    INSERT INTO notes_setup.notes VALUES (1, 'keep', 1, NULL), (2, 'drop', 1, NULL), (3, 'old', 1, TIMESTAMPTZ '2020-01-01 00:00:00+00');
    DETACH notes_setup;`);
  await t.gql(`mutation($p: String!, $c: String!) { core { insert_data_sources(data: {name: "notes", type: "duckdb", prefix: "n", as_module: false, path: $p,
    catalogs: [{name: "notes", type: "localFS", path: $c}]}) { name } } }`, { p: file, c: join(FIXTURES, 'catalogs/notes') });
  const load = await t.gql('mutation { function { core { load_data_source(name: "notes") { success message } } } }');
  expect(load.body.data.function.core.load_data_source.success).toBe(true);
});
afterAll(() => t.close());

it('reads skip soft-deleted rows in lists, relations and aggregations', async () => {
  const r = await t.gql('{ n_notes(order_by: [{field: "id"}]) { id } n_authors { notes { id } notes_aggregation { _rows_count } } n_notes_aggregation { _rows_count } }');
  expect(r.body.data).toEqual({ n_notes: [{ id: 1 }, { id: 2 }], n_authors: [{ notes: [{ id: 1 }, { id: 2 }], notes_aggregation: { _rows_count: 2 } }], n_notes_aggregation: { _rows_count: 2 } });
});

it('delete marks rows instead of removing them; @with_deleted shows them', async () => {
  const del = await t.gql('mutation { delete_n_notes(filter: {body: {eq: "drop"}}) { success affected_rows } }');
  expect(del.body.data.delete_n_notes).toEqual({ success: true, affected_rows: 1 });
  expect((await t.gql('{ n_notes(order_by: [{field: "id"}]) { id } }')).body.data.n_notes).toEqual([{ id: 1 }]);
  const all = await t.gql('{ n_notes(order_by: [{field: "id"}]) @with_deleted { id deleted } }'.replace(' deleted', ' deleted_at'));
  expect(all.body.data.n_notes.map((n: { id: number }) => n.id)).toEqual([1, 2, 3]);
  expect(all.body.data.n_notes[1].deleted_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  const seen: string[] = [];
  t.runtime.executor.observe((_s, sql) => seen.push(sql));
  const again = await t.gql('mutation { delete_n_notes(filter: {body: {eq: "drop"}}) { affected_rows } }');
  expect(again.body.data.delete_n_notes.affected_rows, seen.join('\n')).toBe(0);
});
