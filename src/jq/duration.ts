// Durations written by people: `JQ_TIMEOUT=10s`, `X-Svc-Cache: 5m` (seed 000, SPEC §8 and §9).
// A bare number is seconds, as the seed's `X-Svc-Cache: 300` shows.

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
