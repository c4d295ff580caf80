// Anonymous callers' answer limits (issue 31): ANONYMOUS_MAX_RESPONSE_ROWS / _BYTES are smaller than
// MAX_RESPONSE_ROWS / _BYTES by default, since anyone who can reach the server may ask; a signed-in
// caller keeps the large ones. The anonymous row limit is also the cap pushed into SQL, so the
// database stops at its first row over it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { arrowRows, splitMultipart } from '../ipc/multipart.js';

let t: TestApp;
const SIGNED_IN = { 'x-svc-api-key': 'reader-key' };

beforeAll(async () => {
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(config, 'auth:\n  api_keys:\n    enabled: true\n    keys:\n      - {key: "reader-key", role: admin, username: reader}\n');
  // MAX_RESPONSE_ROWS off: only the anonymous limit can stop the 2,000,000,000-row series before
  // QUERY_TIMEOUT (which would answer QUERY_TIMEOUT instead of RESPONSE_TOO_LARGE).
  t = await startApp({
    CONFIG_FILE: config, MAX_RESPONSE_ROWS: '0', ANONYMOUS_MAX_RESPONSE_ROWS: '300', ANONYMOUS_MAX_RESPONSE_BYTES: '50000', QUERY_TIMEOUT: '5s',
  });
  // One customer whose name is 60 kB: over the anonymous byte limit, under the signed-in one.
  const r = await t.gql('mutation($name: String!) { insert_shop_customers(data: {id: 700, name: $name, country: "GB"}) { id } }', { name: 'y'.repeat(60_000) });
  expect(r.body.errors, r.text).toBeUndefined();
}, 60_000);

afterAll(() => t?.close());

describe('ANONYMOUS_MAX_RESPONSE_ROWS and ANONYMOUS_MAX_RESPONSE_BYTES', () => {
  it('refuses an anonymous answer over the anonymous row limit and names it; a signed-in caller gets it whole', async () => {
    const query = '{ function { shop_series(start: 1, stop: 500) { generate_series } } }';
    const anonymous = await t.gql(query);
    expect(anonymous.body.data, anonymous.text).toEqual({ function: { shop_series: null } });
    expect(anonymous.body.errors[0]).toMatchObject({
      message: 'the answer holds more than 300 rows, the limit of one anonymous request (ANONYMOUS_MAX_RESPONSE_ROWS); sign in for a larger one, or ask for fewer (limit, filter) or page with offset',
      path: ['function', 'shop_series'],
      extensions: { code: 'RESPONSE_TOO_LARGE' },
    });
    const signedIn = await t.gql(query, undefined, SIGNED_IN);
    expect(signedIn.body.errors, signedIn.text).toBeUndefined();
    expect(signedIn.body.data.function.shop_series).toHaveLength(500);
    const under = await t.gql('{ function { shop_series(start: 1, stop: 300) { generate_series } } }');
    expect(under.body.errors, under.text).toBeUndefined();
    expect(under.body.data.function.shop_series).toHaveLength(300);
  });

  it("caps the anonymous caller's statement at its own limit: two billion rows are refused at once, not at QUERY_TIMEOUT", async () => {
    const r = await t.gql('{ function { shop_series(start: 1, stop: 2000000000) { generate_series } } }');
    expect(r.body.errors?.[0], r.text).toMatchObject({ path: ['function', 'shop_series'], extensions: { code: 'RESPONSE_TOO_LARGE' } });
  }, 30_000);

  it('refuses an anonymous answer over the anonymous byte limit; a signed-in caller gets it', async () => {
    const query = '{ shop_customers_by_pk(id: 700) { name } }';
    const anonymous = await t.gql(query);
    expect(anonymous.body.errors?.[0], anonymous.text).toMatchObject({
      message: 'the answer is larger than 50000 bytes, the limit of one anonymous request (ANONYMOUS_MAX_RESPONSE_BYTES); sign in for a larger one, or ask for fewer rows or fields, or page with offset',
      extensions: { code: 'RESPONSE_TOO_LARGE' },
    });
    const signedIn = await t.gql(query, undefined, SIGNED_IN);
    expect(signedIn.body.errors, signedIn.text).toBeUndefined();
    expect(signedIn.body.data.shop_customers_by_pk.name).toHaveLength(60_000);
  });

  it('stops an anonymous /ipc stream at the anonymous limit', async () => {
    const ipc = (headers: Record<string, string> = {}) => t.app.getHttpAdapter().getInstance().inject({
      method: 'POST', url: '/ipc', headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ query: '{ function { shop_series(start: 1, stop: 500) { generate_series } } }' }),
    });
    const anonymous = splitMultipart((await ipc()).rawPayload);
    const errors = JSON.parse(anonymous.find((p) => p.headers['x-svc-path'] === 'errors')!.body.toString('utf8'));
    expect(errors[0]).toMatchObject({ path: ['function', 'shop_series'], extensions: { code: 'RESPONSE_TOO_LARGE' } });
    const signedIn = splitMultipart((await ipc(SIGNED_IN)).rawPayload);
    expect(arrowRows(signedIn.find((p) => p.headers['x-svc-path'] === 'data.function.shop_series')!)).toHaveLength(500);
  });
});
