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

/**
 * The request's zone, decided once for every entry point (src/pipeline/context.factory.ts).
 * A zone no IANA database knows is a 400 naming the header it came from.
 */
export function requestTimeZone(headers: Readonly<Record<string, string | string[] | undefined>>, fallback: string): string {
  const h = (n: string) => {
    const v = headers[n];
    return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
  };
  const from = h('x-svc-timezone') !== undefined ? 'X-Svc-Timezone' : h('time-zone') !== undefined ? 'Time-Zone' : 'DB_TIMEZONE';
  const name = h('x-svc-timezone') ?? h('time-zone') ?? (fallback || 'UTC');
  if (!isTimeZone(name)) {
    const shown = JSON.stringify(name.slice(0, 64));
    throw new PublicError(ErrorCode.BadRequest, `invalid time zone ${shown} in ${from}: unknown time zone ${shown}, use an IANA name such as Europe/Berlin`, 400);
  }
  return name === 'Etc/UTC' || name === 'UTC' ? 'UTC' : name;
}
