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
