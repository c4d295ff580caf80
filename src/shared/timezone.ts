// The request's time zone (SPEC §10): X-Svc-Timezone, else Time-Zone, else DB_TIMEZONE, else UTC.
import { ErrorCode, PublicError } from './errors.js';

const known = new Map<string, boolean>();

export function isTimeZone(name: string): boolean {
  let ok = known.get(name);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      ok = /^[A-Za-z0-9_+\-/]+$/.test(name);
    } catch {
      ok = false;
    }
    if (known.size < 1000) known.set(name, ok);
  }
  return ok;
}

export function requestTimeZone(headers: Record<string, string | string[] | undefined>, fallback: string): string {
  const h = (n: string) => {
    const v = headers[n];
    return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
  };
  const name = h('x-svc-timezone') ?? h('time-zone') ?? (fallback || 'UTC');
  if (!isTimeZone(name)) throw new PublicError(ErrorCode.BadRequest, `invalid time zone "${name.slice(0, 64)}": use an IANA name such as Europe/Berlin`, 400);
  return name === 'Etc/UTC' || name === 'UTC' ? 'UTC' : name;
}
