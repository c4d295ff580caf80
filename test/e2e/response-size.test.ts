// The most one request's answer may hold (issue 31): MAX_RESPONSE_ROWS objects and
// MAX_RESPONSE_BYTES of JSON, counted as each answer arrives from its source; over either, the
// field answers RESPONSE_TOO_LARGE, and an /ipc stream stops at the bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessClient } from '../../src/pipeline/in-process.js';
import { startApp, type TestApp } from '../support/app.js';
import { arrowRows, splitMultipart } from '../ipc/multipart.js';

let t: TestApp;

beforeAll(async () => {
  // QUERY_TIMEOUT: a statement that ran on past the limit would answer a timeout instead.
  // STREAM_LIST_ROWS: a root list asked for more than 100 rows is written row by row.
  t = await startApp({ MAX_RESPONSE_ROWS: '500', MAX_RESPONSE_BYTES: '100000', QUERY_TIMEOUT: '5s', STREAM_LIST_ROWS: '100' });
  // 600 tags (more rows than the limit) and one customer whose name is 150 kB (more bytes than the limit).
  const rows = Array.from({ length: 600 }, (_, i) => ({ id: 1000 + i, name: `tag ${i}` }));
  const r = await t.gql('mutation($rows: [shop_tags_mut_input_data!]!, $name: String!) { insert_shop_tags_batch(data: $rows) { affected_rows } insert_shop_customers(data: {id: 500, name: $name, country: "GB"}) { id } }',
    { rows, name: 'x'.repeat(150_000) });
  expect(r.body.errors, r.text).toBeUndefined();
}, 60_000);

afterAll(() => t?.close());

describe('MAX_RESPONSE_ROWS and MAX_RESPONSE_BYTES', () => {
  it('refuses an answer with more rows than the limit, and answers one under it', async () => {
    const over = await t.gql('{ shop_tags(limit: 1000) { id } }');
    expect(over.body.data, over.text).toEqual({ shop_tags: null });
    expect(over.body.errors[0]).toMatchObject({
      message: 'the answer holds more than 500 rows, the limit of one request (MAX_RESPONSE_ROWS); ask for fewer (limit, filter) or page with offset',
      path: ['shop_tags'],
      extensions: { code: 'RESPONSE_TOO_LARGE' },
    });
    const fn = await t.gql('{ function { shop_series(start: 1, stop: 100000) { generate_series } } }');
    expect(fn.body.errors?.[0]?.extensions?.code, fn.text).toBe('RESPONSE_TOO_LARGE');
    const under = await t.gql('{ shop_tags(limit: 400) { id } }');
    expect(under.body.errors, under.text).toBeUndefined();
    expect(under.body.data.shop_tags).toHaveLength(400);
  });

  it('asks the database for one row past the limit: two billion rows of a table function are refused at once', async () => {
    const r = await t.gql('{ function { shop_series(start: 1, stop: 2000000000) { generate_series } } }');
    expect(r.body.errors?.[0], r.text).toMatchObject({ path: ['function', 'shop_series'], extensions: { code: 'RESPONSE_TOO_LARGE' } });
    // Under the limit, a table function's rows are all there, and the server keeps serving.
    const under = await t.gql('{ function { shop_series(start: 1, stop: 400) { generate_series } } shop_tags(limit: 2) { id } }');
    expect(under.body.errors, under.text).toBeUndefined();
    expect(under.body.data.function.shop_series).toHaveLength(400);
    expect(under.body.data.function.shop_series.at(-1)).toEqual({ generate_series: 400 });
    expect(under.body.data.shop_tags).toHaveLength(2);
  }, 30_000);

  it("leaves the system identity's reads whole (no cap on its statements)", async () => {
    const query = '{ shop_tags(limit: 1000, order_by: [{field: "id"}]) { id } }';
    expect((await t.gql(query)).body.errors?.[0]?.extensions?.code).toBe('RESPONSE_TOO_LARGE');
    const r = await t.app.get(InProcessClient).execute({ query }, 'system');
    expect(r.errors).toBeUndefined();
    expect((r.data as { shop_tags: unknown[] }).shop_tags.length).toBeGreaterThan(501);
  });

  it('counts every root field of the request together', async () => {
    const r = await t.gql('{ a: shop_tags(limit: 300) { id } b: shop_tags(limit: 300, offset: 300) { id } }');
    expect(r.body.errors?.map((e: { extensions: { code: string } }) => e.extensions.code), r.text).toContain('RESPONSE_TOO_LARGE');
  });

  it('refuses an answer with more bytes than the limit', async () => {
    const r = await t.gql('{ shop_customers_by_pk(id: 500) { name } }');
    expect(r.body.errors?.[0], r.text).toMatchObject({
      message: 'the answer is larger than 100000 bytes, the limit of one request (MAX_RESPONSE_BYTES); ask for fewer rows or fields, or page with offset',
      extensions: { code: 'RESPONSE_TOO_LARGE' },
    });
  });

  it('ends a streamed /query list that crosses the byte limit with a whole document and the error at its path', async () => {
    const r = await t.gql('{ shop_customers(limit: 450, order_by: [{field: "id"}]) { id name } }');
    expect(r.status).toBe(200);
    expect(r.headers['content-length'], 'streamed').toBeUndefined();
    const body = JSON.parse(r.text);
    expect(Array.isArray(body.data.shop_customers)).toBe(true);
    expect(body.data.shop_customers.some((c: { id: number }) => c.id === 500)).toBe(false);
    expect(body.errors).toEqual([{
      message: 'the answer is larger than 100000 bytes, the limit of one request (MAX_RESPONSE_BYTES); ask for fewer rows or fields, or page with offset',
      path: ['shop_customers'],
      extensions: { code: 'RESPONSE_TOO_LARGE' },
    }]);
    // A streamed list asked for more rows than the limit is refused before it is written.
    const over = await t.gql('{ shop_tags(limit: 800) { id } }');
    expect(over.headers['content-length']).toBeDefined();
    expect(over.body).toMatchObject({ data: { shop_tags: null }, errors: [{ path: ['shop_tags'], extensions: { code: 'RESPONSE_TOO_LARGE' } }] });
    // Under both, a streamed list is whole.
    const under = await t.gql('{ shop_tags(limit: 450, order_by: [{field: "id"}]) { id } }');
    expect(under.headers['content-length']).toBeUndefined();
    expect(under.body.errors, under.text).toBeUndefined();
    expect(under.body.data.shop_tags).toHaveLength(450);
  });

  it("counts a jq program's querySvc answers with the request's own", async () => {
    // Different variables per call (equal calls are answered once); the calls of one pass run together.
    const jq = '[range(0; 8) | querySvc("query($s: Int!, $e: Int!) { function { shop_series(start: $s, stop: $e) { generate_series } } }"; {s: (. * 1000), e: (. * 1000 + 99)}) | {n: (.data.function.shop_series // [] | length), codes: (.errors // [] | map(.extensions.code))}]';
    const r = await t.request({ method: 'POST', url: '/jq-query', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ jq, query: { query: '{ shop_tags(limit: 1) { id } }' } }) });
    expect(r.status, r.text).toBe(200);
    const calls = r.body as { n: number; codes: string[] }[];
    expect(calls).toHaveLength(8);
    // 800 rows asked in all: at most 500 held, the rest refused with the code.
    expect(calls.reduce((sum, c) => sum + c.n, 0)).toBeLessThanOrEqual(500);
    expect(calls.filter((c) => c.codes.includes('RESPONSE_TOO_LARGE')).length).toBeGreaterThanOrEqual(3);
  });

  it('stops an /ipc stream at the bound and says why', async () => {
    const r = await t.app.getHttpAdapter().getInstance().inject({
      method: 'POST', url: '/ipc', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ query: '{ shop_tags(limit: 1000) { id name } }' }),
    });
    expect(r.statusCode).toBe(200);
    const parts = splitMultipart(r.rawPayload);
    const table = parts.find((p) => p.headers['x-svc-path'] === 'data.shop_tags')!;
    expect(arrowRows(table).length).toBeLessThanOrEqual(500);
    const errors = JSON.parse(parts.find((p) => p.headers['x-svc-path'] === 'errors')!.body.toString('utf8'));
    expect(errors[0]).toMatchObject({ path: ['shop_tags'], extensions: { code: 'RESPONSE_TOO_LARGE' } });
  });
});
