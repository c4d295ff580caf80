// What the planner is told about one root field's request (src/planner/context.ts): the caller's
// access over the served schema, the operation's fragments and variables, the sources' names.
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../executor/request-context.js';
import { type AccessScope, accessOf } from '../permissions/access.js';
import { aliasCounter, type PlanContext } from '../planner/context.js';
import type { SchemaIndex } from '../schema/surface.js';
import type { SourceRegistry } from '../sources/registry.js';

export function planContext(info: GraphQLResolveInfo, index: SchemaIndex, scope: AccessScope, registry: SourceRegistry, ctx: RequestContext): PlanContext {
  const withDeleted = info.fieldNodes.some((n) => n.directives?.some((d) => d.name.value === 'with_deleted'));
  return {
    ...(withDeleted ? { withDeleted } : {}),
    access: accessOf(ctx.access, scope),
    authVars: ctx.authVars,
    schema: info.schema,
    index,
    fragments: info.fragments,
    variables: info.variableValues,
    tableName: (o) => registry.runtime(o.source).tableName(o),
    functionName: (source, name) => registry.runtime(source).functionName(name),
    functionBody: (source, name) => registry.runtime(source).functionBody?.(name),
    nextAlias: aliasCounter(),
  };
}
