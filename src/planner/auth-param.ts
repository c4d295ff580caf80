// `[$auth.x]` in catalog SQL (`@view(sql:)`, `@function(sql:)`): the caller's value as a parameter of
// its own type. `[$auth.user_id_int]` is a number, and PostgreSQL compares a text parameter with an
// integer column not at all ("operator does not exist: integer = text"), so it is bound as one.
import type { ScalarName } from '../catalog/model.js';
import type { PlanContext } from './context.js';
import type { ParamExpr } from './ir/expr.js';

export function authParam(ctx: PlanContext, name: string): ParamExpr {
  const value = ctx.authVars[name] ?? null;
  const scalar: ScalarName = typeof value === 'number' ? (Number.isInteger(value) ? 'BigInt' : 'Float') : typeof value === 'boolean' ? 'Boolean' : 'String';
  return { kind: 'param', value, scalar };
}
