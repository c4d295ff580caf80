// Warnings logged once at start about settings that leave the door open (issue 14 item 1): the
// server still starts, since a development machine may want exactly that, but nobody is surprised.
import { parseBind } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { ADMIN_ROLE } from '../permissions/access.js';
import type { Logger } from '../shared/logger.js';
import type { CoreStore } from './core-store.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

export async function securityWarnings(config: Config, core: CoreStore): Promise<string[]> {
  if (!config.ALLOWED_ANONYMOUS) return [];
  const out: string[] = [];
  const role = config.ANONYMOUS_ROLE;
  const { host } = parseBind(config.BIND);
  if (role === ADMIN_ROLE && !LOOPBACK.test(host)) {
    out.push(`anonymous callers get role "admin" on ${host === '0.0.0.0' || host === '::' ? 'every network interface' : host}: anyone who can reach the server can change it; set ANONYMOUS_ROLE=public (or ALLOWED_ANONYMOUS=false) outside development`);
  }
  if (role !== ADMIN_ROLE) {
    const exists = await core.role(role);
    if (!exists) out.push(`ANONYMOUS_ROLE "${role}" is not a role: anonymous requests will be refused with 403`);
    else if (!(await core.rolePermissions(role)).length) {
      out.push(`ANONYMOUS_ROLE "${role}" has no permission rows: anonymous callers may read and write every data object (not the system module); add rows or use the built-in role "public"`);
    }
  }
  return out;
}

export async function logSecurityWarnings(config: Config, core: CoreStore, log: Logger): Promise<void> {
  for (const w of await securityWarnings(config, core)) log.warn(w);
}
