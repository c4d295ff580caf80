// Thin resolvers (DESIGN.md §3.7): each root field is one call into the pipeline
// plan -> compile -> execute. Nested fields read the JSON the statement built, by response key.
// By what they do: data fields (data-field.ts: reads with the plan cache and /ipc streaming, writes),
// function fields (function-field.ts); the features beside them attach their own (schema-feature.ts).
import type { GraphQLFieldResolver, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { type AccessScope, registerScope } from '../../permissions/access.js';
import type { SchemaIndex } from '../../schema/surface.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { PlanCache } from '../../statements/cache.js';
import { markReadRoot } from '../fast-path/marks.js';
import type { ResolverDeps } from '../resolver-deps.js';
import type { SchemaFeature } from '../schema-feature.js';
import { guardFields } from '../stages/permission.js';
import { dataResolver, READS } from './data-field.js';
import { functionResolver, handlerResolver } from './function-field.js';

/** Attaches the server's resolvers, and the features' (h3, catalog introspection), to a schema built from the generated SDL. */
export function attachResolvers(schema: GraphQLSchema, index: SchemaIndex, scope: AccessScope, deps: ResolverDeps, version = 0, features: readonly SchemaFeature[] = []): void {
  const field = (coord: string) => {
    const [typeName, fieldName] = coord.split('.') as [string, string];
    const type = schema.getType(typeName) as GraphQLObjectType;
    return type.getFields()[fieldName]!;
  };
  const set = (coord: string, resolve: GraphQLFieldResolver<unknown, never>) => (field(coord).resolve = resolve as GraphQLFieldResolver<unknown, unknown>);
  for (const coord of index.modules) field(coord).resolve = () => ({});
  // One plan cache per served schema: a new schema starts with an empty one.
  const plans = new PlanCache();
  for (const [coord, root] of index.roots) {
    set(coord, dataResolver(root, index, scope, deps, plans, version));
    if (READS.has(root.kind)) markReadRoot(field(coord));
  }
  for (const [coord, handlerId] of index.functions) {
    const handler = deps.functions[handlerId];
    if (!handler) throw new PublicError(ErrorCode.Internal, `no handler "${handlerId}" for ${coord}`);
    set(coord, handlerResolver(handler, index.mutationFunctions.has(coord), scope));
  }
  for (const [coord, fn] of index.catalogFunctions) set(coord, functionResolver(fn, index, scope, deps, version));
  for (const feature of features) feature.attach(schema, { index, scope, deps, version });
  guardFields(schema, scope);
  registerScope(schema, scope);
}
