import { readFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import { expect, it } from 'vitest';
import { compileCatalog } from '../../src/catalog/compile.js';
import { buildSurface } from '../../src/schema/surface.js';

it('builds', () => {
  const cat = compileCatalog({ name: 'shop', type: 'duckdb', prefix: 'shop', asModule: false, readOnly: false }, [{ file: 'catalogs/shop/schema.graphql', text: readFileSync('catalogs/shop/schema.graphql', 'utf8') }]);
  const s = buildSurface([cat], [{ module: 'core', mutation: false, name: 'data_source_status', args: '(name: String!)', returns: 'String', handler: 'x' }]);
  const schema = buildSchema(s.sdl);
  expect(schema.getQueryType()).toBeTruthy();
  console.log(s.sdl.slice(-6000));
});
