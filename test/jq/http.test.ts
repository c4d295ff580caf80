// POST /jq-query over HTTP (seed 000 "/jq-query behaviour", "Cache headers for /jq-query"): the whole
// response as input, variables, status codes with {error} bodies, querySvc as the caller, limits.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bodyHash, JQ_CACHE, type JqCache, type JqCacheEntryOptions } from '../../src/jq/cache.js';
import { startApp, type TestApp } from '../support/app.js';

const ADMIN = { 'x-svc-secret-key': 'k' };
const as = (role: string, userId: string, userName: string) => ({ ...ADMIN, 'x-svc-role': role, 'x-svc-user-id': userId, 'x-svc-user-name': userName });

/** Stands in for the service's cache behind the JQ_CACHE hook. */
class MapCache {
  readonly entries = new Map<string, { body: string; options: JqCacheEntryOptions }>();
  attach(hook: JqCache): void {
    vi.spyOn(hook, 'get').mockImplementation(async (key: string) => this.entries.get(key)?.body);
    vi.spyOn(hook, 'set').mockImplementation(async (key: string, body: string, options: JqCacheEntryOptions) => void this.entries.set(key, { body, options }));
  }
}

let t: TestApp;
const cache = new MapCache();

beforeAll(async () => {
  // JQ_TIMEOUT is a setting of the validated configuration (src/config), like every other.
  t = await startApp({ SECRET_KEY: 'k', JQ_TIMEOUT: '1s' });
  cache.attach(t.app.get<JqCache>(JQ_CACHE, { strict: false }));
  const r = await t.gql(`mutation { core {
    a: insert_roles(data: {name: "analyst", description: "reads", permissions: [
      {type_name: "shop_customers", field_name: "email", disabled: true}
    ]}) { name }
    b: insert_roles(data: {name: "no_jq", description: "no /jq-query", permissions: [
      {type_name: "_endpoints", field_name: "/jq-query", disabled: true}
    ]}) { name }
  } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
});
afterAll(async () => {
  await t.close();
});

function jqQuery(body: unknown, headers: Record<string, string> = {}) {
  return t.request({ method: 'POST', url: '/jq-query', payload: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
}

const TAGS = '{ shop_tags(order_by: [{field: "id"}]) { id name } }';

describe('the jq input and result', () => {
  it('jq receives the complete response and its result is the body', async () => {
    const r = await jqQuery({ jq: '{keys: keys, names: [.data.shop_tags[].name]}', query: { query: TAGS } });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.body).toEqual({ keys: ['data', 'extensions'], names: ['classic', 'bestseller', 'gadget'] });
  });

  it('errors of the GraphQL response reach jq (200, data null)', async () => {
    const r = await jqQuery({ jq: '{data, message: .errors[0].message}', query: { query: '{ shop_tags { nope } }' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toBeNull();
    expect(r.body.message).toMatch(/^Cannot query field "nope" on type "shop_tags"\./);
  });

  it('the body is any JSON: a number, a string, null, or an array for several outputs', async () => {
    expect((await jqQuery({ jq: '.data.shop_tags | length', query: { query: TAGS } })).text).toBe('3');
    expect((await jqQuery({ jq: '.data.shop_tags[0].name', query: { query: TAGS } })).body).toBe('classic');
    expect((await jqQuery({ jq: 'empty', query: { query: TAGS } })).text).toBe('null');
    expect((await jqQuery({ jq: '.data.shop_tags[].id', query: { query: TAGS } })).body).toEqual([1, 2, 3]);
  });

  it('query variables are $name in jq, with their types and the operation defaults', async () => {
    const query = 'query T($id: Int!, $with: Boolean = true) { shop_tags_by_pk(id: $id) @include(if: $with) { name } }';
    const r = await jqQuery({ jq: '{id: $id, with: $with, name: .data.shop_tags_by_pk.name}', query: { query, variables: { id: 2 }, operationName: 'T' } });
    expect(r.body).toEqual({ id: 2, with: true, name: 'bestseller' });
  });

  it('a variable only the jq program reads is not "never used"', async () => {
    const query = 'query ($id: Int!, $note: String) { shop_tags_by_pk(id: $id) { name } }';
    const r = await jqQuery({ jq: '{note: $note, name: .data.shop_tags_by_pk.name}', query: { query, variables: { id: 1, note: 'first' } } });
    expect(r.body).toEqual({ note: 'first', name: 'classic' });
  });

  it('the _jq variable computes variables before the query runs', async () => {
    const query = 'query ($id: Int!) { shop_tags_by_pk(id: $id) { name } }';
    const r = await jqQuery({ jq: '[$id, .data.shop_tags_by_pk.name]', query: { query, variables: { base: 1, _jq: '{id: ($base + 2)}' } } });
    expect(r.body).toEqual([3, 'gadget']);
    const bad = await jqQuery({ jq: '.', query: { query, variables: { _jq: '[1]' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/_jq: the expression must yield one object/);
  });
});

describe('status codes', () => {
  it('400 for an invalid jq expression', async () => {
    const r = await jqQuery({ jq: '.data | {', query: { query: TAGS } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid jq expression: syntax error, unexpected end of file at line 1' });
  });

  it('400 for a GraphQL syntax error', async () => {
    const r = await jqQuery({ jq: '.', query: { query: '{ shop_tags { id ' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^Syntax Error/);
  });

  it('400 for a malformed JSON body, in the {error} shape', async () => {
    const r = await jqQuery('{"jq": ');
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(r.body.error).toMatch(/malformed JSON/);
  });

  it.each([
    [{ query: { query: TAGS } }, /missing field "jq"/],
    [{ jq: '.' }, /missing field "query"/],
    [{ jq: '.', query: { variables: {} } }, /missing field "query.query"/],
    [{ jq: '.', query: { query: TAGS, variables: [1] } }, /"query.variables" must be an object/],
    [[1, 2], /must be a JSON object/],
  ])('400 for a body missing fields: %j', async (body, message) => {
    const r = await jqQuery(body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
  });

  it('401 for invalid credentials, 403 for an unknown role, 415 for a non-JSON body', async () => {
    const r401 = await jqQuery({ jq: '.', query: { query: TAGS } }, { authorization: 'Bearer nope' });
    expect(r401.status).toBe(401);
    expect(r401.body).toEqual({ error: 'invalid credentials' });
    const r403 = await jqQuery({ jq: '.', query: { query: TAGS } }, as('ghost', '1', 'g'));
    expect(r403.status).toBe(403);
    expect(r403.body.error).toMatch(/role "ghost" is unknown or disabled/);
    const r415 = await t.request({ method: 'POST', url: '/jq-query', payload: 'jq=.', headers: { 'content-type': 'text/plain' } });
    expect(r415.status).toBe(415);
    expect(r415.body.error).toMatch(/application\/json/);
  });

  it('500 with the jq message when the expression fails while running', async () => {
    const r = await jqQuery({ jq: '.data.shop_tags | error("no tags wanted")', query: { query: TAGS } });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: 'jq error: no tags wanted' });
  });

  it('a runaway program is stopped (500) and the next request is served', async () => {
    const r = await jqQuery({ jq: 'def f: f; f', query: { query: TAGS } });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: 'the jq program was stopped after the time limit of 1 s (JQ_TIMEOUT)' });
    const next = await jqQuery({ jq: '.data.shop_tags | length', query: { query: TAGS } });
    expect(next.status).toBe(200);
    expect(next.body).toBe(3);
  });
});

describe('JQ_TIMEOUT covers querySvc (issue 15)', () => {
  it('a program running thousands of queries is stopped at the limit, and the next request is served', async () => {
    const many = '[range(5000) | querySvc("query($id: Int!) { shop_tags_by_pk(id: $id) { id } }"; {id: .})] | length';
    const r = await jqQuery({ jq: many, query: { query: TAGS } });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: 'the jq program was stopped after the time limit of 1 s (JQ_TIMEOUT)' });
    const next = await jqQuery({ jq: '.data.shop_tags | length', query: { query: TAGS } });
    expect(next.body).toBe(3);
  });

  it('querySvc is held to the limits of /query', async () => {
    const q = `{ ${Array.from({ length: 600 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const r = await jqQuery({ jq: `querySvc(${JSON.stringify(q)}).errors[0] | {message, code: .extensions.code}`, query: { query: TAGS } });
    expect(r.body).toEqual({ message: 'the request uses more than 500 aliases, the limit of one request (MAX_ALIASES)', code: 'BAD_USER_INPUT' });
  });
});

describe('custom functions over HTTP', () => {
  it('authInfo is the caller', async () => {
    const r = await jqQuery({ jq: 'authInfo', query: { query: TAGS } }, as('analyst', '7', 'grace'));
    expect(r.body).toEqual({ userId: '7', userName: 'grace', role: 'analyst' });
  });

  it('querySvc runs as the caller: the inner query sees the caller\'s identity', async () => {
    const me = '{ function { core { auth { me { role user_name user_id } } } } }';
    const r = await jqQuery({ jq: `querySvc(${JSON.stringify(me)}) | {keys: keys, me: .data.function.core.auth.me}`, query: { query: TAGS } }, as('analyst', '7', 'grace'));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ keys: ['data', 'extensions'], me: { role: 'analyst', user_name: 'grace', user_id: '7' } });
  });

  it('querySvc chains: the second query\'s variables come from the first answer', async () => {
    const jq = 'querySvc("{ shop_tags(order_by: [{field: \\"id\\", direction: DESC}], limit: 1) { id } }").data.shop_tags[0].id as $id'
      + ' | querySvc("query ($id: Int!) { shop_tags_by_pk(id: $id) { name } }"; {id: $id}) | {id: $id, name: .data.shop_tags_by_pk.name, main: $main}';
    const r = await jqQuery({ jq: `(.data.shop_tags | length) as $main | ${jq}`, query: { query: TAGS } });
    expect(r.body).toEqual({ id: 3, name: 'gadget', main: 3 });
  });

  it('querySvc answers carry GraphQL errors as /query would', async () => {
    const r = await jqQuery({ jq: 'querySvc("{ nope }") | {data, message: .errors[0].message}', query: { query: TAGS } });
    expect(r.body.data).toBeNull();
    expect(r.body.message).toMatch(/^Cannot query field "nope" on type "Query"\./);
  });

  it('localTime uses X-Svc-Timezone; an unknown zone is 400', async () => {
    const r = await jqQuery({ jq: 'localTime | test("\\\\+09:00$")', query: { query: TAGS } }, { 'x-svc-timezone': 'Asia/Tokyo' });
    expect(r.body).toBe(true);
    const bad = await jqQuery({ jq: 'localTime', query: { query: TAGS } }, { 'time-zone': 'Nowhere/Special' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/unknown time zone "Nowhere\/Special"/);
  });
});

describe('role permissions', () => {
  const EMAILS = '{ shop_customers(order_by: [{field: "id"}], limit: 1) { id email } }';

  it('apply to the GraphQL request: jq sees the forbidden field and its error', async () => {
    const r = await jqQuery({ jq: '{rows: .data.shop_customers, error: .errors[0].message}', query: { query: EMAILS } }, as('analyst', '1', 'a'));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ rows: [{ id: 1, email: null }], error: 'forbidden' });
  });

  it('apply to querySvc, which runs as the caller', async () => {
    const jq = `querySvc(${JSON.stringify(EMAILS)}) | [.data.shop_customers[0].email, .errors[0].message]`;
    expect((await jqQuery({ jq, query: { query: TAGS } }, as('analyst', '1', 'a'))).body).toEqual([null, 'forbidden']);
    const admin = (await jqQuery({ jq, query: { query: TAGS } })).body;
    expect(admin[0]).toMatch(/@/);
    expect(admin[1]).toBeNull();
  });

  it('a role denied the /jq-query endpoint gets 403', async () => {
    const r = await jqQuery({ jq: '.', query: { query: TAGS } }, as('no_jq', '1', 'n'));
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'role "no_jq" may not use /jq-query' });
  });
});

describe('cache headers', () => {
  /** The one entry whose key starts with `prefix` (the rest is the caller's identity and zone, issue 14 item 11). */
  const entry = (prefix: string) => {
    const keys = [...cache.entries.keys()].filter((k) => k.startsWith(prefix));
    expect(keys, prefix).toHaveLength(1);
    return { key: keys[0]!, ...cache.entries.get(keys[0]!)! };
  };

  it('keys the entry by custom key or body hash plus the role and identity, with TTL and the tags of what it read', async () => {
    const body = { jq: '.data.shop_tags | length', query: { query: TAGS } };
    await jqQuery(body, { 'x-svc-cache': '5m', 'x-svc-cache-tags': 'tags, shop ,' });
    const e = entry(`${bodyHash(body)}:admin:`);
    expect(e.body).toBe('3');
    expect(e.options).toEqual({ ttlSeconds: 300, tags: ['tags', 'shop', 'shop_tags', '$role_permissions'] });
    await jqQuery(body, { ...as('analyst', '1', 'a'), 'x-svc-cache-key': 'tag-count', 'x-svc-cache': '30' });
    expect(entry('tag-count:analyst:').options.ttlSeconds).toBe(30);
  });

  it('answers from the cache, and X-Svc-Cache-Invalidate re-runs and replaces the entry', async () => {
    const body = { jq: '.data.shop_tags | length', query: { query: TAGS } };
    await jqQuery(body, { 'x-svc-cache-key': 'stale', 'x-svc-cache': '60' });
    const { key } = entry('stale:admin:');
    cache.entries.set(key, { body: '"from cache"', options: { tags: [] } });
    expect((await jqQuery(body, { 'x-svc-cache-key': 'stale' })).body).toBe('from cache');
    expect((await jqQuery(body, { 'x-svc-cache-key': 'stale', 'x-svc-cache-invalidate': 'true' })).body).toBe(3);
    expect(cache.entries.get(key)?.body).toBe('3');
  });

  it('400 for a TTL or invalidate flag it cannot read', async () => {
    const body = { jq: '.', query: { query: TAGS } };
    expect((await jqQuery(body, { 'x-svc-cache': 'a while' })).body.error).toMatch(/invalid X-Svc-Cache "a while"/);
    expect((await jqQuery(body, { 'x-svc-cache-invalidate': 'maybe' })).status).toBe(400);
  });
});
