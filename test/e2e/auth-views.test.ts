// A catalog view whose SQL reads the caller ([$auth.user_id]) with no arguments answers each caller
// with their own rows, whatever role they hold (issue 32: unrestricted roles shared one plan, so
// the second user got the first user's rows).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  const dir = join(tempDir(), 'catalogs');
  mkdirSync(join(dir, 'notes'), { recursive: true });
  writeFileSync(join(dir, 'notes', 'source.yaml'), 'type: duckdb\npath: notes.duckdb\ncreate: true\nseed: seed.sql\n');
  writeFileSync(join(dir, 'notes', 'seed.sql'), "CREATE TABLE notes (id INTEGER PRIMARY KEY, body VARCHAR, owner VARCHAR); INSERT INTO notes VALUES (1, 'milk', 'u1'), (2, 'bread', 'u2'), (3, 'eggs', 'u1');");
  writeFileSync(join(dir, 'notes', 'schema.graphql'), [
    'type my_notes @view(name: "my_notes", sql: "SELECT id, body FROM [$catalog].notes WHERE owner = [$auth.user_id]") {',
    '  id: Int! @pk',
    '  body: String',
    '}',
  ].join('\n'));
  t = await startApp({ CATALOGS_DIR: dir, SECRET_KEY: 'admin-key' });
}, 60_000);
afterAll(() => t?.close());

const as = (user: string | undefined) => (user ? { 'x-svc-secret-key': 'admin-key', 'x-svc-role': 'admin', 'x-svc-user-id': user } : {});

it('answers each caller of the same query text with their own rows', async () => {
  const query = '{ my_notes(order_by: [{field: "id"}]) { id body } }';
  const seen: unknown[] = [];
  for (const user of [undefined, 'u1', 'u2', 'u1']) seen.push((await t.gql(query, undefined, as(user))).body.data.my_notes);
  expect(seen).toEqual([[], [{ id: 1, body: 'milk' }, { id: 3, body: 'eggs' }], [{ id: 2, body: 'bread' }], [{ id: 1, body: 'milk' }, { id: 3, body: 'eggs' }]]);
});
