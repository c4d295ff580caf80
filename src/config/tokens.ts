// Injection token of the validated configuration (src/config/schema.ts `Config`).
export const CONFIG = Symbol('svc.config');
