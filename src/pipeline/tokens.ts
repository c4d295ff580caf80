// Injection tokens of the request pipeline (CONFIG is src/config/tokens.ts, LOGGER src/shared/logger.ts).
export const APOLLO = Symbol('svc.apollo');
/** The request limits of /query (`RequestLimits`, src/pipeline/limits/cost-limit.ts), made once from the configuration. */
export const LIMITS = Symbol('svc.limits');
