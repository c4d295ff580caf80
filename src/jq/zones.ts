// Time-zone offsets for the jq time functions. jq has no time-zone database, so the offsets are
// computed here with Intl (ICU) and handed to the program as data (DESIGN.md §1): per zone, the
// instants where its UTC offset changes and the offset from each instant on. The jq side finds the
// offset of any instant with `bsearch` (src/jq/prelude.ts).
import { JqError } from './errors.js';

/** `t[i]` (Unix seconds) is where offset `o[i]` (seconds east of UTC) starts; `t[0]` is -infinity. */
export interface ZoneTable {
  readonly t: number[];
  readonly o: number[];
  /** RFC 3339 suffix of each offset: `+02:00`, or `Z` for a zone that is always UTC. */
  readonly l: string[];
  /** Buckets of `b` seconds from `from`: `k[n]` is the entry in force at the start of bucket n. */
  readonly from: number;
  readonly b: number;
  readonly k: number[];
}

// jq's bsearch is written in jq and slow; a bucket index makes the lookup one array access plus
// at most a step or two, which matters when a program converts every row of a large result.
const BUCKET = 32 * 86_400;
// The table covers 1900-2100; before, the first known offset applies, after, the last one.
const FROM = Date.UTC(1900, 0, 1) / 1000;
const TO = Date.UTC(2100, 0, 1) / 1000;
// Weekly samples find every change: zones change their offset at most a few times a year, and
// two changes less than a week apart (none in current rules) would be seen as one.
const STEP = 7 * 86_400;
const MINUS_INFINITY = -1e12;

const tables = new Map<string, ZoneTable>();

/** The canonical IANA name (`europe/berlin` -> `Europe/Berlin`), or undefined when unknown. */
export function canonicalZone(name: string): string | undefined {
  if (typeof name !== 'string' || !name.trim()) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name.trim() }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

function offsetReader(zone: string): (unixSeconds: number) => number {
  const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  return (sec) => {
    // "1/2/2024, GMT+05:30"; a zero offset is printed as plain "GMT".
    const m = /GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(format.format(new Date(sec * 1000)));
    if (!m) throw new Error(`unexpected offset text for ${zone}`);
    if (!m[1]) return 0;
    const abs = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
    return m[1] === '-' ? -abs : abs;
  };
}

function buildTable(zone: string): ZoneTable {
  const offsetAt = offsetReader(zone);
  const t = [MINUS_INFINITY];
  const o = [offsetAt(FROM)];
  let previous = o[0]!;
  for (let s = FROM + STEP; s < TO + STEP; s += STEP) {
    const current = offsetAt(s);
    if (current === previous) continue;
    // Bisect to the second at which the change happens.
    let lo = s - STEP;
    let hi = s;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(mid) === previous) lo = mid;
      else hi = mid;
    }
    t.push(hi);
    o.push(current);
    previous = current;
  }
  const utc = o.length === 1 && o[0] === 0;
  const k: number[] = [];
  if (o.length > 1) {
    let i = 0;
    for (let start = FROM; start < TO; start += BUCKET) {
      while (i + 1 < t.length && t[i + 1]! <= start) i++;
      k.push(i);
    }
  }
  return { t, o, l: o.map((off) => (utc ? 'Z' : offsetLabel(off))), from: FROM, b: BUCKET, k };
}

function offsetLabel(offset: number): string {
  const abs = Math.abs(offset);
  const pad = (n: number) => String(Math.floor(n)).padStart(2, '0');
  return `${offset < 0 ? '-' : '+'}${pad(abs / 3600)}:${pad((abs / 60) % 60)}`;
}

/** The offset table of an IANA zone (computed once per zone and kept); JqError for unknown names. */
export function zoneTable(name: string): { zone: string; table: ZoneTable } {
  const zone = canonicalZone(name);
  if (!zone) throw new JqError('JQ_ERROR', `unknown time zone ${JSON.stringify(name)} (use an IANA name such as "Europe/Berlin")`, 400);
  let table = tables.get(zone);
  if (!table) {
    table = buildTable(zone);
    tables.set(zone, table);
  }
  return { zone, table };
}

/**
 * Zone names a program is likely to use, so that the first pass already has their tables: string
 * literals that look like IANA names. Others are asked for by the program (a further pass).
 */
export function zoneNamesIn(program: string): string[] {
  const names = new Set<string>();
  for (const [, name] of program.matchAll(/"((?:[A-Za-z_]+\/[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)?)|UTC|GMT)"/g)) {
    if (canonicalZone(name!)) names.add(name!);
  }
  return [...names];
}
