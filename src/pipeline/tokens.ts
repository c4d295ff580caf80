// Injection tokens of the request pipeline (CONFIG is src/config/tokens.ts, LOGGER src/shared/logger.ts).
export const APOLLO = Symbol('svc.apollo');
