// ISO-8601 durations (SPEC §3.4 Interval: "PT2H") to the interval text databases read
// ("2 hours"), for engines that do not parse ISO durations themselves (DuckDB).
import { ErrorCode, PublicError } from './errors.js';

const ISO = /^(-)?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
const UNITS = ['years', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds'];

/** "PT2H" -> "2 hours"; other text ("2 hours", "01:00:00") is passed on for the database to read. */
export function intervalText(value: string): string {
  const m = ISO.exec(value.trim());
  if (!m) return value;
  const parts = m.slice(2).map((v, i) => (v === undefined ? '' : `${m[1] ? '-' : ''}${v} ${UNITS[i]}`)).filter(Boolean);
  if (!parts.length) {
    if (value.trim().endsWith('T')) throw new PublicError(ErrorCode.BadUserInput, `invalid duration "${value}"`);
    return '0 seconds';
  }
  return parts.join(' ');
}

const FIXED_SECONDS = [0, 0, 604800, 86400, 3600, 60, 1];

/**
 * "PT2H" -> 7200: a duration of fixed length in seconds, for engines without interval values
 * (MySQL time bins). Years and months have no fixed length and are refused.
 */
export function durationSeconds(value: string): number {
  const m = ISO.exec(value.trim());
  if (!m || value.trim().endsWith('T')) throw new PublicError(ErrorCode.BadUserInput, `invalid duration "${value}" (an ISO-8601 duration such as "PT2H")`);
  if (m[2] !== undefined || m[3] !== undefined) throw new PublicError(ErrorCode.BadUserInput, `duration "${value}" has years or months, which have no fixed length`);
  const seconds = m.slice(2).reduce((sum, v, i) => sum + (v === undefined ? 0 : Number(v) * FIXED_SECONDS[i]!), 0);
  if (seconds <= 0) throw new PublicError(ErrorCode.BadUserInput, `duration "${value}" must be positive`);
  return m[1] ? -seconds : seconds;
}
