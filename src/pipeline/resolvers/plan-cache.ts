// Where a read field's plan is kept between requests (src/statements/cache.ts): a repeated read,
// whatever the values of the variables bound per request, plans nothing. The site says what besides
// the operation and the variables decides the read's SQL.
import { type GraphQLResolveInfo, responsePathAsArray } from 'graphql';
import { authVariablesText } from '../../auth/variables.js';
import type { RequestContext } from '../../executor/request-context.js';
import { fieldVariables } from '../../statements/bind.js';
import type { ReadSite } from '../../statements/cache.js';

/** Where it is, the zone, the role's rules, the caller's `[$auth.*]` values and whether it is limited. */
function planKey(info: GraphQLResolveInfo, ctx: RequestContext): string {
  // `[$auth.*]` values decide the SQL of catalog views and functions for every role, unrestricted
  // ones included (issue 32: an admin's view over [$auth.user_id] answered with the first caller's rows).
  // The JSON text is made once per map (the map is made once per identity: src/auth/variables.ts).
  const who = `${ctx.access.unrestricted ? '' : `${ctx.access.role}#${ctx.access.generation}`}|${authVariablesText(ctx.authVars)}`;
  // A root field's path is its response key (no array per request); callers outside the request
  // limits get statements without the row cap (src/planner/row-cap.ts).
  const path = info.path.prev === undefined ? String(info.path.key) : responsePathAsArray(info.path).join('.');
  return `${path}|${ctx.timezone}|${who}|${ctx.limited ? '' : 'unlimited|'}`;
}

/** The cache site of a read field in this request. */
export function readSite(info: GraphQLResolveInfo, ctx: RequestContext): ReadSite {
  return { schema: info.schema, operation: info.operation, base: planKey(info, ctx), variables: info.variableValues, used: fieldVariables(info.fieldNodes, info.fragments) };
}
