// Secure by default (issue 14 items 1-3): with ANONYMOUS_ROLE=public, the attack of the issue is
// refused end to end (mint an admin key, register a source, register /etc/passwd as a catalog,
// unload a source, read keys and connection strings); the built-in roles can do what the docs say
// and nothing more; secrets are hashed or masked; identity headers are ignored unless configured.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityWarnings } from '../../src/system/security-warnings.js';
import { loadConfig } from '../../src/config/load.js';
import { startApp, type TestApp, tempDir } from '../support/app.js';

const ADMIN = { 'x-svc-secret-key': 'k' };
const as = (role: string) => ({ ...ADMIN, 'x-svc-role': role, 'x-svc-user-id': '1' });
let t: TestApp;

const errorOf = (r: { body: { errors?: { message: string }[] } }) => r.body.errors?.[0]?.message ?? '';

beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 'k', ANONYMOUS_ROLE: 'public', ALLOW_MANAGED_API_KEYS: 'true' });
});
afterAll(() => t.close());

/** What an anonymous caller tries, in the order an attacker would; each must be refused. */
const ATTACK: readonly [string, string][] = [
  ['mint an admin API key', 'mutation { core { insert_api_keys(data: {name: "mine", description: "", key: "anon-admin-key", default_role: "admin"}) { name } } }'],
  ['register a source', 'mutation { core { insert_data_sources(data: {name: "evil", type: "duckdb", prefix: "evil", as_module: false, path: "/tmp/evil.duckdb"}) { name } } }'],
  ['register /etc/passwd as a catalog', 'mutation { core { insert_catalog_sources(data: {name: "passwd", type: "uri", path: "/etc/passwd"}) { name } } }'],
  ['unload a source', 'mutation { function { core { unload_data_source(name: "shop") { success } } } }'],
  ['invalidate the cache', 'mutation { function { core { cache { invalidate { success } } } } }'],
  ['checkpoint', 'mutation { function { core { checkpoint { success } } } }'],
  ['read API keys', '{ core { api_keys { name key default_role } } }'],
  ['look a key up', '{ core { api_keys_by_key(key: "anon-admin-key") { name } } }'],
  ['read connection strings', '{ core { data_sources { name path } } }'],
  ['read catalog sources', '{ core { catalog_sources { name path } } }'],
  ['read roles and permissions', '{ core { roles { name } role_permissions { role } } }'],
  ['count the keys', '{ core { api_keys_aggregation { _rows_count } } }'],
  ['read engine views', '{ core { meta { databases { name path } } } }'],
  ['read node info', '{ function { core { version { version } } } }'],
  ['describe a source', '{ function { core { describe_data_source_schema(name: "shop") } } }'],
  ['ask a source status', '{ function { core { data_source_status(name: "shop") } } }'],
  ['write shop data', 'mutation { insert_shop_tags(data: {id: 500, name: "anon"}) { id } }'],
  ['update shop data', 'mutation { update_shop_tags(data: {name: "anon"}) { affected_rows } }'],
];

describe('anonymous callers with ANONYMOUS_ROLE=public (issue 14 item 1)', () => {
  it.each(ATTACK)('cannot %s', async (_what, query) => {
    const r = await t.gql(query);
    expect(errorOf(r)).toMatch(/^forbidden/);
    expect(r.text).not.toMatch(/anon-admin-key|\/tmp\/evil|passwd|sha256:/);
  });

  it('wrote nothing, and the shop is still served', async () => {
    const r = await t.gql('{ core { api_keys { name } data_sources { name } catalog_sources { name } } shop_tags_by_pk(id: 500) { id } }', undefined, ADMIN);
    expect(r.body.data).toEqual({ core: { api_keys: [], data_sources: [{ name: 'shop' }], catalog_sources: [{ name: 'shop' }] }, shop_tags_by_pk: null });
    expect((await t.gql('{ shop_tags(limit: 1) { id } }')).body.data.shop_tags).toHaveLength(1);
  });

  it('keeps me, my_permissions and check_access', async () => {
    const r = await t.gql(`{ function { core { auth {
      me { user_id user_name role auth_type auth_provider }
      my_permissions { role_name permissions { object field disabled } }
      check_access(type_name: "Mutation", fields: "insert_shop_tags") { field enabled }
    } } } }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.function.core.auth).toEqual({
      me: { user_id: 'anonymous', user_name: 'anonymous', role: 'public', auth_type: 'anonymous', auth_provider: 'anonymous' },
      my_permissions: { role_name: 'public', permissions: [{ object: 'Mutation', field: '*', disabled: true }] },
      check_access: [{ field: 'insert_shop_tags', enabled: false }],
    });
  });

  it('sees no system module in introspection', async () => {
    const r = await t.gql('{ __schema { types { name } } }');
    const names = r.body.data.__schema.types.map((x: { name: string }) => x.name);
    expect(names).toContain('shop_orders');
    expect(names).not.toContain('core_api_keys');
    expect(names).not.toContain('core_data_sources');
    expect(names).not.toContain('Mutation');
    const fn = await t.gql('{ __type(name: "_module_core_function") { fields { name } } }');
    expect(fn.body.data.__type.fields.map((f: { name: string }) => f.name)).toEqual(['auth']);
  });
});

describe('built-in roles', () => {
  it('readonly reads data but no system object or function, and writes nothing', async () => {
    expect((await t.gql('{ shop_tags(limit: 1) { id } }', undefined, as('readonly'))).body.data.shop_tags).toHaveLength(1);
    for (const [, q] of ATTACK) expect(errorOf(await t.gql(q, undefined, as('readonly'))), q).toMatch(/^forbidden/);
  });

  it('a role without rows reads and writes data, but not the system module', async () => {
    await t.gql('mutation { core { insert_roles(data: {name: "norows", description: "no rows"}) { name } } }', undefined, ADMIN);
    const w = await t.gql('mutation { insert_shop_tags(data: {id: 501, name: "ok"}) { id } }', undefined, as('norows'));
    expect(w.body.data.insert_shop_tags).toEqual({ id: 501 });
    expect(errorOf(await t.gql('{ core { api_keys { name } } }', undefined, as('norows')))).toMatch(/^forbidden/);
    expect(errorOf(await t.gql('mutation { function { core { unload_data_source(name: "shop") { success } } } }', undefined, as('norows')))).toMatch(/^forbidden/);
  });

  it('an operator opens a system object or function to a role with a row naming it', async () => {
    await t.gql(`mutation { core { insert_roles(data: {name: "ops", description: "operations", permissions: [
      {type_name: "data-object:query", field_name: "core_data_sources"},
      {type_name: "_module_core_function", field_name: "data_source_status"}
    ]}) { name } } }`, undefined, ADMIN);
    const r = await t.gql('{ core { data_sources { name } } function { core { data_source_status(name: "shop") } } }', undefined, as('ops'));
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data).toEqual({ core: { data_sources: [{ name: 'shop' }] }, function: { core: { data_source_status: 'loaded' } } });
    expect(errorOf(await t.gql('{ core { api_keys { name } } }', undefined, as('ops')))).toMatch(/^forbidden/);
    expect(errorOf(await t.gql('mutation { core { delete_data_sources(filter: {name: {eq: "shop"}}) { affected_rows } } }', undefined, as('ops')))).toMatch(/^forbidden/);
  });

  it('carry the established descriptions (issue 18 item 10)', async () => {
    const r = await t.gql('{ core { roles(filter: {name: {in: ["admin", "public", "readonly"]}}, order_by: [{field: "name"}]) { name description } } }', undefined, ADMIN);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.core.roles.map((x: { description: string }) => x.description)).toEqual(['Admin role', 'Public role', 'Readonly role']);
  });
});

describe('secrets are not data (issue 14 item 2)', () => {
  it('a managed key is shown once, stored hashed, found by api_keys_by_key, and works', async () => {
    const made = await t.gql('mutation { core { insert_api_keys(data: {name: "ci", description: "", key: "plain-key-123", default_role: "readonly"}) { name key shown: key } } }', undefined, ADMIN);
    expect(made.body.data.core.insert_api_keys).toEqual({ name: 'ci', key: 'plain-key-123', shown: 'plain-key-123' });
    const read = await t.gql('{ core { api_keys { name key } api_keys_by_key(key: "plain-key-123") { name } } }', undefined, ADMIN);
    expect(read.text).not.toContain('plain-key-123');
    expect(read.body.data.core.api_keys[0].key).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(read.body.data.core.api_keys_by_key).toEqual({ name: 'ci' });
    const me = await t.gql('{ function { core { auth { me { role user_name } } } } }', undefined, { 'x-svc-api-key': 'plain-key-123' });
    expect(me.body.data.function.core.auth.me).toEqual({ role: 'readonly', user_name: 'ci' });
    // The stored hash is not a key.
    const stored = read.body.data.core.api_keys[0].key as string;
    expect((await t.gql('{ __typename }', undefined, { 'x-svc-api-key': stored })).status).toBe(401);
  });

  it('a secret cannot be extracted through filters, ordering or aggregations', async () => {
    for (const q of [
      '{ core { api_keys(filter: {key: {like: "sha256:a%"}}) { name } } }',
      '{ core { data_sources(filter: {path: {like: "%pass%"}}) { name } } }',
      '{ core { data_sources_aggregation { path { list } } } }',
      '{ core { data_sources_bucket_aggregation { key { path } aggregations { _rows_count } } } }',
      '{ core { data_sources(order_by: [{field: "path"}]) { name path } } }',
    ]) expect(errorOf(await t.gql(q, undefined, ADMIN)), q).toMatch(/^forbidden: "core_data_sources.path" is a secret|^forbidden: "core_api_keys.key" is a secret/);
  });

  it('a password in a data-source path reads back as ***; [$ENV] placeholders stay', async () => {
    const r = await t.gql(`mutation { core {
      a: insert_data_sources(data: {name: "pgsrc", type: "postgres", prefix: "pgsrc", as_module: true, path: "postgres://app:s3cr3t@db:5432/sales?sslmode=disable&password=other"}) { name path }
      b: insert_data_sources(data: {name: "envsrc", type: "postgres", prefix: "envsrc", as_module: true, path: "postgres://app:[$PG_PASSWORD]@db/sales"}) { name path }
    } }`, undefined, ADMIN);
    expect(r.body.data.core).toEqual({
      a: { name: 'pgsrc', path: 'postgres://app:***@db:5432/sales?sslmode=disable&password=***' },
      b: { name: 'envsrc', path: 'postgres://app:[$PG_PASSWORD]@db/sales' },
    });
    const read = await t.gql('{ core { data_sources_by_pk(name: "pgsrc") { path } } }', undefined, ADMIN);
    expect(read.body.data.core.data_sources_by_pk.path).toBe('postgres://app:***@db:5432/sales?sslmode=disable&password=***');
    expect(read.text).not.toContain('s3cr3t');
  });

  it('a credential in an http source path reads back as *** (x-svc-token, api keys and tokens in the query string)', async () => {
    const path = 'https://api.example/v1?x-svc-token=tok123&x-svc-timeout=5s&api_key=k456&access_token=t789&x-svc-auth=query&x-svc-auth-name=api_key&env=[$WX_TOKEN]';
    const r = await t.gql('mutation($p: String!) { core { insert_data_sources(data: {name: "wxsrc", type: "http", prefix: "wxsrc", as_module: true, path: $p}) { path } } }', { p: path }, ADMIN);
    const masked = 'https://api.example/v1?x-svc-token=***&x-svc-timeout=5s&api_key=***&access_token=***&x-svc-auth=query&x-svc-auth-name=api_key&env=[$WX_TOKEN]';
    expect(r.body.data?.core.insert_data_sources, r.text).toEqual({ path: masked });
    const read = await t.gql('{ core { data_sources_by_pk(name: "wxsrc") { path } } }', undefined, ADMIN);
    expect(read.body.data.core.data_sources_by_pk.path).toBe(masked);
    expect(read.text).not.toMatch(/tok123|k456|t789/);
  });

  it('a catalog is read only from the allowed directories, whatever its type', async () => {
    for (const [type, path] of [['uri', '/etc/passwd'], ['localFS', '/etc/passwd'], ['uri', 'file:///etc/passwd'], ['localFS', '/etc']]) {
      const name = `c_${type}_${path.replace(/\W/g, '_')}`;
      await t.gql(`mutation($n: String!, $t: String!, $p: String!) { core { insert_data_sources(data: {name: $n, type: "duckdb", prefix: $n, as_module: true, path: ":memory:",
        catalogs: [{name: $n, type: $t, path: $p}]}) { name } } }`, { n: name, t: type, p: path }, ADMIN);
      const load = await t.gql('mutation($n: String!) { function { core { load_data_source(name: $n) { success message } } } }', { n: name }, ADMIN);
      expect(load.body.data.function.core.load_data_source, path).toEqual({ success: false, message: `catalog path "${path}" is outside the directories catalogs may be read from (CATALOG_ALLOWED_PATHS)` });
      const status = await t.gql('query($n: String!) { function { core { describe_data_source_schema(name: $n, log: true) } } }', { n: name }, ADMIN);
      expect(status.text).not.toContain('root:');
    }
  });
});

describe('start-up warnings (issue 14 item 1)', () => {
  const config = (env: Record<string, string>) => loadConfig({ env: { CORE_DB_PATH: join(tempDir(), 'core.duckdb'), ...env }, argv: [], cwd: tempDir() });

  it('warn when anonymous callers are admin beyond loopback, or get a role without rows', async () => {
    const core = t.runtime.core;
    expect(await securityWarnings(config({}), core)).toEqual([expect.stringMatching(/^anonymous callers get role "admin" on every network interface/)]);
    expect(await securityWarnings(config({ BIND: '127.0.0.1:15000' }), core)).toEqual([]);
    expect(await securityWarnings(config({ ANONYMOUS_ROLE: 'public' }), core)).toEqual([]);
    expect(await securityWarnings(config({ ANONYMOUS_ROLE: 'norows' }), core)).toEqual([expect.stringMatching(/^ANONYMOUS_ROLE "norows" has no permission rows/)]);
    expect(await securityWarnings(config({ ANONYMOUS_ROLE: 'nosuch' }), core)).toEqual([expect.stringMatching(/^ANONYMOUS_ROLE "nosuch" is not a role/)]);
    expect(await securityWarnings(config({ ALLOWED_ANONYMOUS: 'false' }), core)).toEqual([]);
  });
});

describe('identity headers are opt-in (issue 14 item 3)', () => {
  it('a static key ignores X-API-User-ID / X-API-Username unless its configuration names them', async () => {
    const file = join(tempDir(), 'svc.yaml');
    writeFileSync(file, 'auth:\n  api_keys:\n    enabled: true\n    keys:\n      - {key: "shared", role: "readonly", username: "team"}\n      - {key: "proxy", role: "readonly", headers: {user_id: "X-API-User-ID", user_name: "X-API-Username"}}\n');
    const app = await startApp({ CONFIG_FILE: file });
    try {
      const me = async (key: string) => (await app.gql('{ function { core { auth { me { user_id user_name } } } } }', undefined, { 'x-svc-api-key': key, 'x-api-user-id': '42', 'x-api-username': 'mallory' })).body.data.function.core.auth.me;
      expect(await me('shared')).toEqual({ user_id: 'team', user_name: 'team' });
      expect(await me('proxy')).toEqual({ user_id: '42', user_name: 'mallory' });
    } finally {
      await app.close();
    }
  });
});
