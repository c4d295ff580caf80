// The request's time zone (SPEC §10): X-Svc-Timezone, else Time-Zone, else DB_TIMEZONE, else UTC.
// jq's localTime and the defaults of the time functions use it.
import { ErrorCode, PublicError } from '../shared/errors.js';
import { canonicalZone } from './zones.js';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s?.trim() || undefined;
}

/** The IANA zone name to use; 400 for a name that is not a known zone. */
export function requestTimezone(headers: Headers, dbTimezone?: string): string {
  const fromHeader = header(headers, 'x-svc-timezone') ?? header(headers, 'time-zone');
  const name = fromHeader ?? (dbTimezone?.trim() || 'UTC');
  if (!canonicalZone(name)) {
    throw new PublicError(ErrorCode.BadRequest, `unknown time zone ${JSON.stringify(name)}${fromHeader ? '' : ' (DB_TIMEZONE)'}: use an IANA name such as "Europe/Berlin"`, 400);
  }
  return name;
}
