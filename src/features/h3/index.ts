// The root `h3(resolution)` query (SPEC §4.5): rows of the objects with a geometry aggregated by H3
// cell. Its SDL is part of the generated schema (src/schema/h3-sdl.ts); this feature resolves it.
import type { GraphQLFieldResolver, GraphQLObjectType } from 'graphql';
import type { SchemaFeature } from '../../pipeline/schema-feature.js';
import { H3_CELL_RESOLVERS, H3_QUERY_TYPE, h3Resolver } from './resolvers.js';

export const h3Feature: SchemaFeature = {
  attach(schema, { index, scope, deps, version }) {
    const h3 = schema.getQueryType()?.getFields().h3;
    if (!h3) return;
    h3.resolve = h3Resolver(index, scope, deps, version) as GraphQLFieldResolver<unknown, unknown>;
    const cell = schema.getType(H3_QUERY_TYPE) as GraphQLObjectType;
    for (const [name, resolve] of Object.entries(H3_CELL_RESOLVERS)) cell.getFields()[name]!.resolve = resolve as GraphQLFieldResolver<unknown, unknown>;
  },
};
