// Catalog compiler (src/catalog): the generated surface for representative catalogs (golden SDL)
// and precise errors for bad SDL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GraphQLObjectType, printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileCatalog } from '../../src/catalog/compile.js';
import { CatalogError } from '../../src/catalog/errors.js';
import type { SourceInfo } from '../../src/catalog/model.js';
import { compileSchema } from '../../src/pipeline/schema.service.js';
import { expectGolden } from '../support/golden.js';

const ROOT = join(import.meta.dirname, '..', '..');
const GOLDEN = join(import.meta.dirname, '..', 'golden', 'catalog');
const source = (over: Partial<SourceInfo> = {}): SourceInfo => ({ name: 'src', type: 'duckdb', prefix: '', asModule: false, readOnly: false, ...over });
const file = (rel: string) => ({ file: rel, text: readFileSync(join(ROOT, rel), 'utf8') });

function sdlOf(info: SourceInfo, rel: string): string {
  const cat = compileCatalog(info, [file(rel)]);
  return printSchema(compileSchema([cat], []).schema);
}

describe('generated surface (golden SDL)', () => {
  it('extend type adds fields to the catalog\'s own types; function argument defaults are kept', () => {
    const text = [
      'type a @table(name: "a") {\n  id: Int! @pk\n}',
      'extend type a {\n  twin: [a] @join(references_name: "a", source_fields: ["id"], references_fields: ["id"])\n  n: Int @function_call(references_name: "f", args: {x: "id"})\n}',
      'extend type Function {\n  f(x: Int!, step: Int = 10): Int @function(name: "f")\n}',
    ].join('\n');
    const schema = compileSchema([compileCatalog(source(), [{ file: 'cat/schema.graphql', text }])], []).schema;
    const a = schema.getType('a') as GraphQLObjectType;
    expect(Object.keys(a.getFields())).toEqual(expect.arrayContaining(['id', 'twin', 'twin_aggregation', 'n']));
    expect(a.getFields().n!.args.map((x) => [x.name, x.defaultValue])).toEqual([['step', 10]]);
    const fn = schema.getType('Function') as GraphQLObjectType;
    expect(fn.getFields().f!.args.map((x) => [x.name, x.defaultValue])).toEqual([['x', undefined], ['step', 10]]);
  });


  it('prefix, relations both ways, self reference, M2M, unique key, computed field, view', () => {
    expectGolden(join(GOLDEN, 'shop.graphql'), sdlOf(source({ name: 'shop', prefix: 'shop' }), 'catalogs/shop/schema.graphql'));
  });

  it('as_module with @module paths, schema-qualified tables, lists, excluded operators, field_source', () => {
    expectGolden(join(GOLDEN, 'modules.graphql'), sdlOf(source({ name: 'crm', prefix: 'crm', asModule: true }), 'test/fixtures/catalogs/modules/schema.graphql'));
  });

  it('views with SQL and required arguments get no mutations', () => {
    expectGolden(join(GOLDEN, 'views.graphql'), sdlOf(source({ name: 'reports', prefix: 'rep' }), 'test/fixtures/catalogs/views/schema.graphql'));
  });

  it('the root h3 query offers the objects with a geometry of sources that can group by H3 cell, not MySQL ones', () => {
    const text = () => `type places @table(name: "places") {\n  id: Int! @pk\n  at: Geometry\n}`;
    const duck = compileCatalog(source({ name: 'd', prefix: 'd' }), [{ file: 'd/schema.graphql', text: text() }]);
    const pg = compileCatalog(source({ name: 'p', type: 'postgres', prefix: 'p' }), [{ file: 'p/schema.graphql', text: text() }]);
    const my = compileCatalog(source({ name: 'm', type: 'mysql', prefix: 'm' }), [{ file: 'm/schema.graphql', text: text() }]);
    const fields = Object.keys((compileSchema([duck, pg, my], []).schema.getType('_h3_data_query') as GraphQLObjectType).getFields());
    expect(fields).toEqual(['d_places_aggregation', 'd_places_bucket_aggregation', 'p_places_aggregation', 'p_places_bucket_aggregation']);
  });

  it('a view behind a relation takes its args on the relation fields; required when its input has non-null members', () => {
    const text = [
      'input win { since: Int! }',
      'type v @view(name: "v", sql: "SELECT * FROM t WHERE n >= [$since]") @args(name: "win") {\n  id: Int! @pk\n  n: Int\n}',
      'type t @table(name: "t") {\n  id: Int! @pk\n  v_id: Int @field_references(references_name: "v", field: "id", query: "win_row", references_query: "ts")\n}',
    ].join('\n');
    const cat = compileCatalog(source(), [{ file: 'cat/schema.graphql', text }]);
    const sdl = printSchema(compileSchema([cat], []).schema);
    expect(sdl).toContain('win_row(inner: Boolean = false, args: win!): v');
    expect(sdl).toMatch(/type _t_aggregation \{[^}]*win_row\(args: win!\): _v_aggregation/);
    expect(sdl).toMatch(/type Query \{[^}]*\bv\([^)]*args: win!\): \[v\]/);
    expect(sdl).not.toMatch(/input t_filter \{[^}]*win_row/);
  });

  it('structured columns aggregate field by field, nested structures too; other structures get no aggregation type', () => {
    const text = [
      'type inner { n: Int\n  tags: [String] }',
      'type outer { a: inner\n  s: String\n  shape: Geometry }',
      'type result_row { x: Int }',
      'type t @table(name: "t") {\n  id: Int! @pk\n  o: outer\n}',
    ].join('\n');
    const sdl = printSchema(compileSchema([compileCatalog(source(), [{ file: 'cat/schema.graphql', text }])], []).schema);
    expect(sdl).toMatch(/type _t_aggregation \{[^}]*\n {2}o: _outer_aggregation\n/);
    expect(sdl).toContain('type _outer_aggregation {\n  a: _inner_aggregation\n  s: StringAggregation\n  shape: GeometryAggregation\n}');
    expect(sdl).toContain('type _inner_aggregation {\n  n: IntAggregation\n}');
    expect(sdl).not.toContain('_result_row_aggregation');
  });

  it('read_only sources get no mutation fields', () => {
    const sdl = sdlOf(source({ name: 'shop', prefix: 'ro', readOnly: true }), 'catalogs/shop/schema.graphql');
    expect(sdl).not.toMatch(/insert_ro_/);
    expect(sdl).toContain('ro_customers(');
  });

  it('places as_module fields un-prefixed under the module and keeps prefixed type names', () => {
    const sdl = sdlOf(source({ name: 'crm', prefix: 'crm', asModule: true }), 'test/fixtures/catalogs/modules/schema.graphql');
    expect(sdl).toMatch(/type Query \{\n  crm: _module_crm_query/);
    expect(sdl).toMatch(/type _module_crm_sales_eu_query \{\n  accounts\(filter: crm_accounts_filter/);
    expect(sdl).toMatch(/type _module_crm_mutation \{[^}]*sales: _module_crm_sales_mutation/);
  });

  it('compiles the same input to the same output', () => {
    const a = sdlOf(source({ name: 'shop', prefix: 'shop' }), 'catalogs/shop/schema.graphql');
    const b = sdlOf(source({ name: 'shop', prefix: 'shop' }), 'catalogs/shop/schema.graphql');
    expect(a).toBe(b);
  });
});

function problems(text: string, file = 'cat/schema.graphql'): readonly string[] {
  try {
    compileCatalog(source(), [{ file, text }]);
  } catch (e) {
    if (e instanceof CatalogError) return e.problems;
    throw e;
  }
  throw new Error('expected the catalog to be refused');
}

describe('catalog errors name the file, the line and the thing', () => {
  it('syntax errors', () => {
    expect(problems('type a @table(name: "a") {\n  id: Int! @pk\n  name String\n}')).toEqual(['syntax error: Expected ":", found Name "String". (cat/schema.graphql:3)']);
  });

  it('unknown directives and directive arguments', () => {
    expect(problems('type a @table(name: "a") {\n  id: Int! @pk @primary\n  b: Int @sql(expr: "1")\n}')).toEqual([
      'unknown directive "@primary" (cat/schema.graphql:2)',
      'unknown argument "expr" of directive "@sql" (cat/schema.graphql:3)',
    ]);
  });

  it('a @cache ttl that is neither seconds nor a duration', () => {
    expect(problems('type a @table(name: "a") @cache(ttl: "5 parsecs") {\n  id: Int! @pk\n}')).toEqual([
      'invalid cache ttl "5 parsecs": use seconds (300) or a duration ("30s", "5m", "1h", "24h") (cat/schema.graphql:1)',
    ]);
    const ok = compileCatalog(source(), [{ file: 'cat/schema.graphql', text: 'type a @table(name: "a") @cache(ttl: "5m") {\n  id: Int! @pk\n}' }]);
    expect(ok.objects[0]!.cache).toEqual({ ttl: '5m' });
  });

  it('directive arguments of the wrong type, directives where they do not apply, unknown arguments anywhere (issue 15)', () => {
    const sdl = [
      'type a @table(name: 42) @pk {',
      '  id: Int! @pk @unique(fields: ["id"])',
      '  b: Int @sql(exp: true) @geometry_info(srid: "4326")',
      '}',
      'type s {',
      '  x: Int @sql(expression: "1")',
      '}',
      'extend type Function {',
      '  f(n: Int @arg_default(val: "1")): Int @function(name: "f", sql: "SELECT 1", is_table: "no") @table(name: "f")',
      '}',
    ].join('\n');
    expect(problems(sdl)).toEqual([
      'argument "name" of directive "@table" must be a string, not 42 (cat/schema.graphql:1)',
      'directive "@pk" does not apply to a type (it applies to fields) (cat/schema.graphql:1)',
      'directive "@unique" does not apply to a field (it applies to types) (cat/schema.graphql:2)',
      'argument "exp" of directive "@sql" must be a string, not true (cat/schema.graphql:3)',
      'argument "srid" of directive "@geometry_info" must be an integer, not "4326" (cat/schema.graphql:3)',
      'unknown argument "expression" of directive "@sql" (cat/schema.graphql:6)',
      'argument "is_table" of directive "@function" must be true or false, not "no" (cat/schema.graphql:9)',
      'directive "@table" does not apply to a field (it applies to types) (cat/schema.graphql:9)',
      'unknown argument "val" of directive "@arg_default" (cat/schema.graphql:9)',
    ]);
  });

  it('enum-typed arguments as hugr writes them (enum values) and as strings; an unknown enum value is refused (issue 32)', () => {
    const sdl = [
      'type places @table(name: "places") @embeddings(model: "m", vector: "v", distance: Cosine) {',
      '  id: Int! @pk',
      '  at: Geometry @geometry_info(srid: 4326, type: POINT)',
      '  area: Geometry @geometry_info(type: MULTIPOLYGON srid: 4326)',
      '  line: Geometry @geometry_info(type: "LineString", srid: 3857)',
      '  v: String',
      '}',
    ].join('\n');
    expect(compileCatalog(source(), [{ file: 'cat/schema.graphql', text: sdl }]).objects[0]!.fields.map((f) => f.name)).toEqual(['id', 'at', 'area', 'line', 'v']);
    expect(problems('type a @table(name: "a") @embeddings(model: "m", vector: "v", distance: Manhattan) {\n  id: Int! @pk\n  g: Geometry @geometry_info(type: 7)\n}')).toEqual([
      'argument "distance" of directive "@embeddings" must be one of L2, Cosine, Inner (VectorDistanceType), not Manhattan (cat/schema.graphql:1)',
      'argument "type" of directive "@geometry_info" must be one of POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON, GEOMETRYCOLLECTION (GeometryType), not 7 (cat/schema.graphql:3)',
    ]);
  });

  it('unknown field types', () => {
    expect(problems('type a @table(name: "a") {\n  id: Int! @pk\n  at: Instant\n}')).toEqual(['unknown type "Instant" of field "at" (cat/schema.graphql:3)']);
  });

  it('references to unknown types and fields', () => {
    const text = 'type orders @table(name: "orders") {\n  id: Int! @pk\n  customer_id: Int @field_references(references_name: "customer", field: "id")\n  shop_id: Int @field_references(references_name: "orders", field: "nope", query: "parent", references_query: "children")\n}';
    expect(problems(text)).toEqual([
      'unknown type "customer" in references of "orders" (cat/schema.graphql:3)',
      'unknown field "nope" of "orders" in references of "orders" (cat/schema.graphql:4)',
    ]);
  });

  it('unknown fields in @unique and unknown @args inputs', () => {
    expect(problems('type a @table(name: "a") @unique(fields: ["code"]) {\n  id: Int! @pk\n}')).toEqual(['unknown field "code" in @unique of "a" (cat/schema.graphql:1)']);
    expect(problems('type v @view(name: "v") @args(name: "missing") {\n  id: Int\n}')).toEqual(['unknown input type "missing" in @args of "v" (cat/schema.graphql:1)']);
  });

  it('M2M tables need exactly two references, and names must not clash', () => {
    expect(problems('type a @table(name: "a") {\n  id: Int! @pk\n}\ntype j @table(name: "j", is_m2m: true) {\n  a_id: Int! @field_references(references_name: "a", field: "id")\n}')).toEqual([
      'm2m table "j" must have exactly two references, found 1 (cat/schema.graphql:4)',
    ]);
    expect(problems('type a @table(name: "a") {\n  id: Int! @pk\n  b: Int @field_references(references_name: "a", field: "id", query: "id")\n}')).toEqual([
      'field "id" of "a" is defined twice (a relation has the name of a field) (cat/schema.graphql:1)',
    ]);
  });

  it('@function_call names a function of the catalog, its arguments and the row fields', () => {
    const text = 'type o @table(name: "o") {\n  id: Int! @pk\n  t: Float @function_call(references_name: "nope", args: {x: "id"})\n  u: Float @function_call(references_name: "f", args: {y: "missing"})\n}\nextend type Function {\n  f(x: Int): Float @function(name: "f")\n}';
    expect(problems(text)).toEqual([
      'unknown function "nope" in @function_call of "o.t" (cat/schema.graphql:3): a function of another source is called from an extension source (docs/multi-source.md)',
      'function "f" has no argument "y" (@function_call of "o.u") (cat/schema.graphql:4)',
      'unknown field "missing" of "o" in @function_call (cat/schema.graphql:4)',
    ]);
  });

  it('a chained @function_call argument names a scalar call field of the row, without a cycle', () => {
    const text = [
      'type o @table(name: "o") {', '  id: Int! @pk',
      '  a: Float @function_call(references_name: "f", args: {x: "b"})',
      '  b: Float @function_call(references_name: "f", args: {x: "a"})',
      '  rows: [r] @function_call(references_name: "t", args: {x: "id"})',
      '  c: Float @function_call(references_name: "f", args: {x: "rows"})',
      '  d: Float @function_call(references_name: "f", args: {x: "c"})', '}',
      'type r { v: Int }',
      'extend type Function {', '  f(x: Float): Float @function(name: "f")', '  t(x: Int): [r] @function(name: "t", is_table: true)', '}',
    ].join('\n');
    expect(problems(text)).toEqual([
      '@function_call of "o.a" calls itself through "b" (cat/schema.graphql:3)',
      '@function_call of "o.b" calls itself through "a" (cat/schema.graphql:4)',
      '@function_call of "o.c" maps "x" to "rows": a chained call must be a scalar @function_call of the same source (cat/schema.graphql:6)',
    ]);
  });

  it('extend type of a type the catalog does not define', () => {
    expect(problems('type a @table(name: "a") { id: Int @pk }\nextend type b { x: Int }')).toEqual([
      'extend type b: no type "b" in this catalog (another source\'s objects are extended by an extension source) (cat/schema.graphql:2)',
    ]);
  });

  it('types defined twice', () => {
    expect(problems('type a @table(name: "a") { id: Int }\ntype a @table(name: "a") { id: Int }')).toEqual(['type "a" is defined twice (cat/schema.graphql:2)']);
  });
});
