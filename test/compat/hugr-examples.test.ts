// Catalogs from hugr's published examples (hugr-lab/examples), written as they are there. The
// open-payments example serves a self-defined DuckDB source and adds to its tables with a second
// catalog file: a computed field naming columns bare, and a relation given to an existing column by
// declaring the column again (`extend type general_payments { Covered_Recipient_NPI: BigInt
// @field_references(...) }`). That second declaration was a duplicate field ("Field
// general_payments.Covered_Recipient_NPI can only be defined once") and the source did not load.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { data, writeSource } from './support.js';

let t: TestApp;
beforeAll(async () => {
  const dir = join(tempDir(), 'catalogs');
  writeSource(dir, 'op', {
    'source.yaml': 'type: duckdb\npath: ":memory:"\nseed: seed.sql\nself_defined: true\n',
    'seed.sql': [
      'CREATE TABLE providers (npi BIGINT PRIMARY KEY, name VARCHAR, total_general_amount DOUBLE, total_research_amount DOUBLE);',
      "INSERT INTO providers VALUES (100, 'Dr A', 10.5, NULL), (200, 'Dr B', NULL, NULL), (300, 'Dr C', 1, 2);",
      'CREATE TABLE general_payments (id BIGINT PRIMARY KEY, "Covered_Recipient_NPI" BIGINT, amount DOUBLE);',
      'INSERT INTO general_payments VALUES (1, 100, 5), (2, 100, 5.5), (3, 300, 1);',
      'CREATE TABLE osm_administrative_boundaries (id BIGINT PRIMARY KEY, tags JSON);',
      `INSERT INTO osm_administrative_boundaries VALUES (1, '{"de:amtlicher_gemeindeschluessel": "09162000"}');`,
    ].join('\n'),
    'extra.graphql': `# extend auto-generated Open Payments schema with the providers view

extend type providers {
  total_payments_amount: Float @sql(exp: "COALESCE(total_general_amount,0) + COALESCE(total_research_amount, 0)")
}

extend type general_payments {
  Covered_Recipient_NPI: BigInt @field_references(
    name: "general_payments_providers_npi"
    references_name: "providers"
    field: "npi"
    query: "provider"
    description: "NPI of the covered recipient physician"
    references_query: "general_payments"
    references_description: "General payments made to the covered recipient physician"
  )
}

extend type osm_administrative_boundaries {
  de_code: String @sql(
    exp: "(tags->>'de:amtlicher_gemeindeschluessel')"
  )
}
`,
  });
  // The same on a catalog's own type: a field declared again by an extension in another file.
  writeSource(dir, 'own', {
    'source.yaml': 'type: duckdb\npath: ":memory:"\nseed: seed.sql\n',
    'seed.sql': "CREATE TABLE a (id INTEGER PRIMARY KEY, b_id INTEGER); CREATE TABLE b (id INTEGER PRIMARY KEY, name VARCHAR); INSERT INTO a VALUES (1, 2); INSERT INTO b VALUES (2, 'two');",
    '1.graphql': 'type a @table(name: "a") {\n  id: Int! @pk\n  "the b row"\n  b_id: Int\n}\ntype b @table(name: "b") {\n  id: Int! @pk\n  name: String\n}\n',
    '2.graphql': 'extend type a {\n  b_id: Int @field_references(references_name: "b", field: "id", query: "b", references_query: "as")\n}\n',
  });
  // The sales example's many-to-many junction (no @pk), as published.
  writeSource(dir, 'sales', {
    'source.yaml': 'type: duckdb\npath: ":memory:"\nseed: seed.sql\nprefix: sales\n',
    'seed.sql': [
      'CREATE TABLE products (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL); CREATE TABLE tags (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL);',
      "CREATE TABLE products_tags (product_id INTEGER, tag_id INTEGER); INSERT INTO products VALUES (1, 'Novel'), (2, 'Atlas');",
      "INSERT INTO tags VALUES (1, 'sale'), (2, 'new'); INSERT INTO products_tags VALUES (1, 1), (1, 2);",
    ].join('\n'),
    'schema.graphql': `type products @table(name: "products") {
  id: Int! @pk
  name: String!
}
type tags @table(name: "tags") {
  id: Int! @pk
  name: String!
}
type products_tags @table(name: "products_tags", is_m2m: true) {
  product_id: Int! @field_references(
    name: "products_tags_product_id",
    references_name: "products"
    field: "id",
    query: "product"
    description: "Product in the tag"
    references_query: "tags"
    references_description: "tags"
  )
  tag_id: Int! @field_references(
    name: "products_tags_tag_id",
    references_name: "tags"
    field: "id",
    query: "tag"
    description: "Tag of the product"
    references_query: "products"
    references_description: "Tagged products"
  )
}
`,
  });
  t = await startApp({ CATALOGS_DIR: dir });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('hugr-lab/examples: open-payments extra.graphql and h3 osm_extend.graphql over a self-defined source', () => {
  it('a column declared again in extend type gets its relation both ways; computed fields name columns bare', async () => {
    const d = await data(t, `{
      providers(order_by: [{field: "npi"}]) { npi total_payments_amount general_payments(order_by: [{field: "id"}]) { id } general_payments_aggregation { amount { sum } } }
      general_payments(order_by: [{field: "id"}]) { id Covered_Recipient_NPI provider { name } }
      osm_administrative_boundaries { id de_code }
    }`);
    expect(d.providers).toEqual([
      { npi: 100, total_payments_amount: 10.5, general_payments: [{ id: 1 }, { id: 2 }], general_payments_aggregation: { amount: { sum: 10.5 } } },
      { npi: 200, total_payments_amount: 0, general_payments: null, general_payments_aggregation: null },
      { npi: 300, total_payments_amount: 3, general_payments: [{ id: 3 }], general_payments_aggregation: { amount: { sum: 1 } } },
    ]);
    expect(d.general_payments.map((p: any) => [p.id, p.Covered_Recipient_NPI, p.provider.name])).toEqual([[1, 100, 'Dr A'], [2, 100, 'Dr A'], [3, 300, 'Dr C']]);
    expect(d.osm_administrative_boundaries).toEqual([{ id: 1, de_code: '09162000' }]);
  });

  it('on a catalog\'s own type: the field keeps its description and gains the relation', async () => {
    const d = await data(t, '{ a { id b_id b { name } } b { as { id } } }');
    expect(d.a).toEqual([{ id: 1, b_id: 2, b: { name: 'two' } }]);
    expect(d.b).toEqual([{ as: [{ id: 1 }] }]);
    const schema = await data(t, '{ __type(name: "a") { fields { name description } } }');
    expect(schema.__type.fields.filter((f: any) => f.name === 'b_id')).toEqual([{ name: 'b_id', description: 'the b row' }]);
  });
});

describe('hugr-lab/examples sales: a many-to-many junction without @pk, and its aggregations per product', () => {
  it('a product without tags has null for the list and for its aggregation (hugr-lab/query-engine e2e references/m2m_aggregation)', async () => {
    const d = await data(t, `{ sales_products(order_by: [{field: "id"}]) {
      id tags(order_by: [{field: "name"}]) { name } tags_aggregation { _rows_count name { list(distinct: true) } } tags_bucket_aggregation { key { name } aggregations { _rows_count } }
    } }`);
    expect(d.sales_products).toEqual([
      {
        id: 1, tags: [{ name: 'new' }, { name: 'sale' }], tags_aggregation: { _rows_count: 2, name: { list: ['new', 'sale'] } },
        tags_bucket_aggregation: expect.arrayContaining([{ key: { name: 'sale' }, aggregations: { _rows_count: 1 } }, { key: { name: 'new' }, aggregations: { _rows_count: 1 } }]),
      },
      // Was {_rows_count: 0, name: {list: null}}; hugr's engine answers null, as for the list itself.
      { id: 2, tags: null, tags_aggregation: null, tags_bucket_aggregation: null },
    ]);
  });
});
