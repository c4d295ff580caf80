// Injection tokens of the Nest application.
export const CONFIG = Symbol('svc.config');
export const LOGGER = Symbol('svc.logger');
export const APOLLO = Symbol('svc.apollo');
