// hugr's "Vector Similarity Search" page (issue 32) on the northwind fixture's documents (a DuckDB
// source; DuckDB's own list distance functions, no vss extension). Embeddings of three elements:
// 1 [1,0,0], 2 [0.9,0.1,0], 3 [0,1,0], 4 [0,0.8,0.6], 5 [0.5,0,0.5], 6 none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { data, startNorthwind } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startNorthwind();
}, 60_000);
afterAll(() => t?.close());

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

describe('docs/5-graphql/1-queries/11-vector-search.md', () => {
  it('similarity: the nearest rows first, at most limit, by Cosine, L2 and Inner', async () => {
    const d = await data(t, `{
      cosine: documents(similarity: {name: "embedding", vector: [1, 0, 0], distance: Cosine, limit: 3}) { id title }
      l2: documents(similarity: {name: "embedding", vector: [1, 0, 0], distance: L2, limit: 2}) { id }
      inner: documents(similarity: {name: "embedding", vector: [0, 1, 0], distance: Inner, limit: 2}) { id }
    }`);
    expect(d.cosine).toEqual([{ id: 1, title: 'Intro to SQL' }, { id: 2, title: 'Advanced SQL' }, { id: 5, title: 'Graph theory' }]);
    expect(ids(d.l2)).toEqual([1, 2]);
    expect(ids(d.inner)).toEqual([3, 4]);
  });

  it('_<field>_distance: the distance of each row (smaller is nearer), sortable by its alias', async () => {
    const d = await data(t, `{
      documents(filter: {embedding: {is_null: false}}, order_by: [{field: "distance"}, {field: "id"}]) {
        id distance: _embedding_distance(vector: [1, 0, 0], distance: L2) cos: _embedding_distance(vector: [1, 0, 0], distance: Cosine)
      }
    }`);
    expect(ids(d.documents)).toEqual([1, 2, 5, 3, 4]);
    const byId = Object.fromEntries(d.documents.map((r: any) => [r.id, r]));
    expect(byId[1].distance).toBeCloseTo(0, 6);
    expect(byId[2].distance).toBeCloseTo(Math.SQRT2 / 10, 5);
    expect(byId[5].cos).toBeCloseTo(1 - Math.SQRT1_2, 5);
    expect(byId[3].cos).toBeCloseTo(1, 6);
  });

  it('filters apply before the search; the search narrows aggregations and buckets', async () => {
    const d = await data(t, `{
      food: documents(filter: {category: {eq: "food"}}, similarity: {name: "embedding", vector: [0, 0, 1], distance: Cosine, limit: 1}) { id }
      documents_aggregation(similarity: {name: "embedding", vector: [1, 0, 0], distance: Cosine, limit: 3}) { _rows_count }
      documents_bucket_aggregation(similarity: {name: "embedding", vector: [1, 0, 0], distance: Cosine, limit: 3}, order_by: [{field: "key.category"}]) { key { category } aggregations { _rows_count } }
    }`);
    expect(ids(d.food)).toEqual([4]);
    expect(d.documents_aggregation).toEqual({ _rows_count: 3 });
    expect(d.documents_bucket_aggregation).toEqual([
      { key: { category: 'db' }, aggregations: { _rows_count: 2 } },
      { key: { category: 'math' }, aggregations: { _rows_count: 1 } },
    ]);
  });

  it('vector fields filter by is_null only; @dim checks the length of a searched vector', async () => {
    const d = await data(t, '{ documents(filter: {embedding: {is_null: true}}) { id } }');
    expect(ids(d.documents)).toEqual([6]);
    const eq = await t.gql('{ documents(filter: {embedding: {eq: [1, 0, 0]}}) { id } }');
    expect(eq.body.errors[0].message).toMatch(/eq/);
    const dim = await t.gql('{ documents(similarity: {name: "embedding", vector: [1, 0], distance: Cosine, limit: 1}) { id } }');
    expect(dim.body.errors[0]).toMatchObject({ message: 'the vector for "documents.embedding" has 2 elements, not 3 (@dim)', extensions: { code: 'BAD_USER_INPUT' } });
    const field = await t.gql('{ documents(similarity: {name: "title", vector: [1, 0, 0], distance: Cosine, limit: 1}) { id } }');
    expect(field.body.errors[0].message).toBe('"title" is not a Vector field of "documents"');
  });
});
