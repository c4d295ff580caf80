// A request writing to several sources (issue 18 item 7): all statements run first; the sources then
// commit one by one in the order the request first used them. A commit that fails (here a deferred
// foreign key, checked only at COMMIT) rolls back the sources after it and names those committed before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessClient } from '../../src/pipeline/in-process.js';
import { startApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';
import { catalogDir, data, registerSource } from './support.js';

let db: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  db = await createTestDatabase('svc_commit');
  await db.exec(`CREATE TABLE parents (id integer PRIMARY KEY);
    CREATE TABLE kids (id integer PRIMARY KEY, parent_id integer REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED);
    INSERT INTO parents VALUES (1);`);
  // The result cache on: a partial commit must drop the cached reads of the source that committed.
  t = await startApp({ CACHE_L1_ENABLED: 'true' });
  const catalog = catalogDir('type parents @table(name: "parents") {\n  id: Int! @pk\n}\ntype kids @table(name: "kids") {\n  id: Int! @pk\n  parent_id: Int\n}\n');
  expect((await registerSource(t, { name: 'fam', path: db.url, catalog })).success).toBe(true);
});

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const roles = async () => (await data(t, '{ core { roles(filter: {name: {like: "commit_%"}}, order_by: [{field: "name"}]) { name } } }')).core.roles;
const kids = async () => (await data(t, '{ fam_kids(order_by: [{field: "id"}]) { id } }')).fam_kids;

describe('commits in request order', () => {
  it('a source that fails to commit first: nothing is written anywhere', async () => {
    const r = await t.gql('mutation { insert_fam_kids(data: {id: 10, parent_id: 99}) { id } core { insert_roles(data: {name: "commit_a", description: "x"}) { name } } }');
    expect(r.status).toBe(200);
    expect(r.body.data).toBeNull();
    expect(r.body.errors).toEqual([{ message: 'the writes to "fam" could not be committed; nothing was written', extensions: { code: 'QUERY_FAILED' } }]);
    expect(await kids()).toEqual([]);
    expect(await roles()).toEqual([]);
  });

  it('a source that fails to commit after another: the earlier one stays committed, and the error says so', async () => {
    const r = await t.gql('mutation { core { insert_roles(data: {name: "commit_b", description: "x"}) { name } } insert_fam_kids(data: {id: 11, parent_id: 99}) { id } }');
    expect(r.body.data).toBeNull();
    expect(r.body.errors).toEqual([{
      message: 'the writes to "fam" could not be committed and were rolled back, as were those to the sources after it; the writes to "core" had already been committed',
      extensions: { code: 'QUERY_FAILED' },
    }]);
    expect(await kids()).toEqual([]);
    expect(await roles()).toEqual([{ name: 'commit_b' }]);
  });

  it('all commits succeed: both sources hold the writes', async () => {
    const r = await t.gql('mutation { core { insert_roles(data: {name: "commit_c", description: "x"}) { name } } insert_fam_kids(data: {id: 12, parent_id: 1}) { id } }');
    expect(r.body).toEqual({ data: { core: { insert_roles: { name: 'commit_c' } }, insert_fam_kids: { id: 12 } }, extensions: {} });
    expect(await kids()).toEqual([{ id: 12 }]);
    expect(await roles()).toEqual([{ name: 'commit_b' }, { name: 'commit_c' }]);
  });

  it('every entry point ends a partial commit alike (issue 27): /query, /jq-query and the in-process client', async () => {
    const mutation = (name: string, id: number) => `mutation { core { insert_roles(data: {name: "${name}", description: "x"}) { name } } insert_fam_kids(data: {id: ${id}, parent_id: 99}) { id } }`;
    const error = { message: 'the writes to "fam" could not be committed and were rolled back, as were those to the sources after it; the writes to "core" had already been committed', extensions: { code: 'QUERY_FAILED' } };
    const CACHED = '{ core { roles(filter: {name: {like: "commit_e%"}}, order_by: [{field: "name"}]) @cache(ttl: 300) { name } } }';
    const cached = async () => ((await t.gql(CACHED)).body.data.core.roles as { name: string }[]).map((r) => r.name);
    const client = t.app.get(InProcessClient);
    const ways: [string, (m: string) => Promise<unknown>][] = [
      ['/query', async (m) => (await t.gql(m)).body],
      ['/jq-query', async (m) => JSON.parse((await t.request({ method: 'POST', url: '/jq-query', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ jq: '.', query: { query: m } }) })).text)],
      ['in-process', async (m) => {
        const r = await client.execute({ query: m }, 'system');
        return { data: r.data ?? null, errors: r.errors?.map((e) => ({ message: e.message, extensions: e.extensions })), extensions: {} };
      }],
    ];
    const names: string[] = [];
    for (const [i, [way, run]] of ways.entries()) {
      await cached(); // a cached read of the source that will commit
      const name = `commit_e${i}`;
      names.push(name);
      expect(await run(mutation(name, 30 + i)), way).toEqual({ data: null, errors: [error], extensions: {} });
      // The committed source's cached reads were dropped: the read sees the role just written.
      expect(await cached(), way).toEqual(names);
    }
    expect(await kids()).toEqual([{ id: 12 }]);
  });
});
