// Permission at every field (SPEC §7): the role is asked before any field at any depth resolves.
// A synchronous guard on each resolver rather than an async field stage: it runs per nested value,
// where a promise and a closure per field would cost the large answers (see field-stage.ts).
import { getNamedType, type GraphQLFieldResolver, type GraphQLSchema, isObjectType } from 'graphql';
import type { RequestContext } from '../../executor/request-context.js';
import { type AccessScope, accessOf, forbidden } from '../../permissions/access.js';
import { maskSecret } from '../../shared/secrets.js';
import { markPlain } from '../fast-path/marks.js';
import { byResponseKey } from '../../schema/by-response-key.js';

/**
 * Every field, at every depth, asks the role first (SPEC §7): a denied field answers "forbidden" at
 * its own path with the rest of the data intact (SPEC §1). Aliases, fragments and variables cannot
 * avoid it, since it runs per resolved field whatever the query text looked like.
 */
export function guardFields(schema: GraphQLSchema, scope: AccessScope): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const owner = scope.owners.get(type.name);
    for (const field of Object.values(type.getFields())) {
      const base = (field.resolve ?? byResponseKey) as GraphQLFieldResolver<unknown, RequestContext>;
      // A password inside a connection string is shown as *** wherever the field is read (issue 14 item 2).
      const masked = owner !== undefined && scope.secrets.get(owner)?.get(field.name) === 'mask';
      const inner: GraphQLFieldResolver<unknown, RequestContext> = masked
        ? async (s, a, c, i) => {
          const v = await base(s, a, c, i);
          return typeof v === 'string' ? maskSecret(v) : v;
        }
        : base;
      // The fast path may read a field from the parent's JSON itself only when nothing else happens to it.
      if (!field.resolve && !masked) markPlain(field);
      const returns = getNamedType(field.type).name;
      field.resolve = ((source, args, ctx: RequestContext, info) => {
        if (accessOf(ctx.access, scope).fieldDenied(type.name, field.name, returns)) throw forbidden();
        return inner(source, args, ctx, info);
      }) as GraphQLFieldResolver<unknown, unknown>;
    }
  }
}

