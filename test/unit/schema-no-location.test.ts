// The served schema keeps its AST (astNode) but not the source locations of the generated SDL: a
// token and a location object per name were ~3.4 MB of the idle server's heap (issue 30, the
// 1,000,000-row answer's memory). Nothing reads them: errors locate the request, not the schema.
import { describe, expect, it } from 'vitest';
import type { GraphQLObjectType } from 'graphql';
import { compileCatalog } from '../../src/catalog/compile.js';
import { compileSchema } from '../../src/pipeline/schema.service.js';
import { findKind } from '../../src/sources/kinds.js';

describe('the served schema', () => {
  it('has its AST without locations', () => {
    const info = { name: 's', type: 'duckdb', prefix: 'p', asModule: false, readOnly: false };
    const text = 'type items @table(name: "items") {\n  id: Int! @pk\n  name: String\n}\n';
    const schema = compileSchema([compileCatalog(info, [{ file: 'f.graphql', text }], findKind('duckdb')!.capabilities.catalog)], []).schema;
    const query = schema.getQueryType()!;
    const field = (query as GraphQLObjectType).getFields()['p_items']!;
    expect(query.astNode).toBeDefined();
    expect(field.astNode).toBeDefined();
    expect(query.astNode!.loc).toBeUndefined();
    expect(field.astNode!.loc).toBeUndefined();
    expect(field.astNode!.name.loc).toBeUndefined();
  });
});
