// Durations: ISO-8601 ones (SPEC §3.4 Interval: "PT2H") to the interval text databases read, and
// the ones written by people (`JQ_TIMEOUT=10s`, `X-Svc-Cache: 5m`, seed 000, SPEC §8 and §9).
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

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `"300"`, `"1.5"` (seconds), `"500ms"`, `"30s"`, `"5m"`, `"1h30m"`, `"24h"`, `"7d"` -> milliseconds; undefined when malformed. */
export function parseDurationMs(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000;
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/.test(t)) return undefined;
  let total = 0;
  for (const [, n, unit] of t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)) total += Number(n) * UNIT_MS[unit!]!;
  return total;
}

/** Sizes for JQ_MAX_MEMORY: `"512"` (MB), `"512MB"`, `"1GB"`, `"262144KB"` -> megabytes. */
export function parseSizeMb(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(kb|mb|gb)?\s*$/i.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = (m[2] ?? 'mb').toLowerCase();
  return unit === 'kb' ? n / 1024 : unit === 'gb' ? n * 1024 : n;
}
