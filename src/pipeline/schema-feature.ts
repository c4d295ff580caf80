// A feature served beside the generated fields (the root h3 query, catalog introspection): it
// attaches its own resolvers to each new schema. Features live in their own folders
// (src/features/) and are handed to the schema service by the module that builds it, so the
// pipeline names none of them.
import type { GraphQLSchema } from 'graphql';
import type { AccessScope } from '../permissions/access.js';
import type { SchemaIndex } from '../schema/surface.js';
import type { ResolverDeps } from './resolver-deps.js';

export interface SchemaBuild {
  readonly index: SchemaIndex;
  readonly scope: AccessScope;
  readonly deps: ResolverDeps;
  /** The served schema's version (cache keys). */
  readonly version: number;
}

export interface SchemaFeature {
  /** Sets the resolvers of the feature's fields; called before the field guard wraps every field. */
  attach(schema: GraphQLSchema, build: SchemaBuild): void;
}
