// The custom jq functions of SPEC §8 at fixed instants and zones ("now" injected), and querySvc's
// repeated passes with a recording query runner.
import { afterAll, describe, expect, it } from 'vitest';
import type { JqContext } from '../../src/jq/context.js';
import { JqEngine } from '../../src/jq/engine.js';
import { JqError } from '../../src/jq/errors.js';

const engine = new JqEngine({ timeoutMs: 5000, memoryMb: 128, threads: 2, maxPasses: 16 });
afterAll(() => engine.close());

const NOW = new Date('2024-06-15T14:30:45.123Z');
const identity = { role: 'analyst', userId: '42', userName: 'ada', authType: 'apikey' };

async function jq(program: string, timezone = 'UTC', extra: Partial<JqContext> = {}, input = 'null'): Promise<unknown> {
  return (await engine.run({ program, input, context: { identity, timezone, now: NOW, ...extra } })).value();
}

async function jqError(program: string, timezone = 'UTC', extra: Partial<JqContext> = {}): Promise<JqError> {
  const e = await jq(program, timezone, extra).then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(JqError);
  return e as JqError;
}

describe('current time', () => {
  it('utcTime is now in UTC; localTime is now in the request time zone', async () => {
    expect(await jq('utcTime', 'Europe/Berlin')).toBe('2024-06-15T14:30:45.123Z');
    expect(await jq('localTime', 'Europe/Berlin')).toBe('2024-06-15T16:30:45.123+02:00');
    expect(await jq('localTime', 'America/New_York')).toBe('2024-06-15T10:30:45.123-04:00');
    expect(await jq('localTime', 'Asia/Kolkata')).toBe('2024-06-15T20:00:45.123+05:30');
    expect(await jq('localTime')).toBe('2024-06-15T14:30:45.123Z');
  });

  it('localTime follows daylight saving time', async () => {
    expect(await jq('localTime', 'Europe/Berlin', { now: new Date('2024-01-15T12:00:00Z') })).toBe('2024-01-15T13:00:00+01:00');
  });
});

describe('unixTime and fromUnixTime', () => {
  it('unixTime converts RFC 3339 strings and passes numbers; null is now', async () => {
    expect(await jq('"2024-06-15T14:30:45Z" | unixTime')).toBe(1718461845);
    expect(await jq('"2024-06-15T16:30:45+02:00" | unixTime')).toBe(1718461845);
    expect(await jq('"2024-06-15T14:30:45.250Z" | unixTime')).toBe(1718461845.25);
    expect(await jq('1718461845 | unixTime')).toBe(1718461845);
    expect(await jq('null | unixTime')).toBe(1718461845.123);
  });

  it('a time without offset is read in the request time zone', async () => {
    expect(await jq('"2024-06-15T16:30:45" | unixTime', 'Europe/Berlin')).toBe(1718461845);
    expect(await jq('"2024-06-15" | unixTime', 'America/New_York')).toBe(1718424000);
  });

  it('fromUnixTime renders in the request zone or the given one, keeping sub-seconds', async () => {
    expect(await jq('1718461845 | fromUnixTime')).toBe('2024-06-15T14:30:45Z');
    expect(await jq('1718461845 | fromUnixTime', 'Europe/Berlin')).toBe('2024-06-15T16:30:45+02:00');
    expect(await jq('1718461845.5 | fromUnixTime("America/New_York")')).toBe('2024-06-15T10:30:45.5-04:00');
    expect(await jq('0 | fromUnixTime("Asia/Tokyo")')).toBe('1970-01-01T09:00:00+09:00');
  });
});

describe('roundTime', () => {
  const t = '"2024-06-13T14:47:31.5Z"';
  it.each([
    ['second', '2024-06-13T14:47:31Z'],
    ['minute', '2024-06-13T14:47:00Z'],
    ['hour', '2024-06-13T14:00:00Z'],
    ['day', '2024-06-13T00:00:00Z'],
    ['week', '2024-06-10T00:00:00Z'],
    ['month', '2024-06-01T00:00:00Z'],
    ['year', '2024-01-01T00:00:00Z'],
    ['15m', '2024-06-13T14:45:00Z'],
    ['6h', '2024-06-13T12:00:00Z'],
  ])('to %s', async (unit, expected) => {
    expect(await jq(`${t} | roundTime("${unit}")`)).toBe(expected);
  });

  it('uses local boundaries of the request zone or the given one', async () => {
    expect(await jq(`${t} | roundTime("day")`, 'Europe/Berlin')).toBe('2024-06-13T00:00:00+02:00');
    expect(await jq(`"2024-06-13T23:30:00Z" | roundTime("day"; "Europe/Berlin")`)).toBe('2024-06-14T00:00:00+02:00');
    expect(await jq(`"2024-06-15T14:30:45Z" | roundTime("day"; "UTC") | unixTime`, 'Europe/Berlin')).toBe(1718409600);
    expect(await jq(`"2024-06-13T14:47:00Z" | roundTime("hour"; "Asia/Kolkata")`)).toBe('2024-06-13T20:00:00+05:30');
  });

  it('rejects units it does not know', async () => {
    expect((await jqError('"2024-06-13T14:47:31Z" | roundTime("fortnightly")')).message).toMatch(/roundTime: unknown unit "fortnightly"/);
    expect((await jqError('"2024-06-13T14:47:31Z" | roundTime("1mo")')).message).toMatch(/use "month"/);
  });
});

describe('timeAdd', () => {
  it.each([
    ['90s', '2024-06-15T14:32:15Z'],
    ['-30m', '2024-06-15T14:00:45Z'],
    ['2h', '2024-06-15T16:30:45Z'],
    ['-7d', '2024-06-08T14:30:45Z'],
    ['1h30m', '2024-06-15T16:00:45Z'],
    ['1w', '2024-06-22T14:30:45Z'],
  ])('adds %s', async (duration, expected) => {
    expect(await jq(`"2024-06-15T14:30:45Z" | timeAdd("${duration}")`)).toBe(expected);
  });

  it('adds calendar days and months in the zone, across daylight saving time', async () => {
    expect(await jq('"2024-03-30T12:00:00+01:00" | timeAdd("1d"; "Europe/Berlin")')).toBe('2024-03-31T12:00:00+02:00');
    expect(await jq('"2024-03-30T12:00:00+01:00" | timeAdd("24h"; "Europe/Berlin")')).toBe('2024-03-31T13:00:00+02:00');
    expect(await jq('"2024-01-31T00:00:00Z" | timeAdd("1mo")')).toBe('2024-02-29T00:00:00Z');
    expect(await jq('"2024-02-29T00:00:00Z" | timeAdd("-1y")')).toBe('2023-02-28T00:00:00Z');
  });

  it('chains with localTime and roundTime (now - 7 days, start of that day)', async () => {
    expect(await jq('localTime | timeAdd("-7d") | roundTime("day")', 'Europe/Berlin')).toBe('2024-06-08T00:00:00+02:00');
  });

  it('rejects a malformed duration', async () => {
    expect((await jqError('"2024-06-15T14:30:45Z" | timeAdd("soon")')).message).toMatch(/invalid duration "soon"/);
  });
});

describe('datePart', () => {
  it.each([
    ['second', 45], ['minute', 30], ['hour', 14], ['day', 15], ['month', 6], ['year', 2024], ['weekday', 6], ['yearday', 167],
  ])('%s', async (part, expected) => {
    expect(await jq(`"2024-06-15T14:30:45Z" | datePart("${part}")`)).toBe(expected);
  });

  it('reads the parts in the request zone or the given one', async () => {
    expect(await jq('"2024-06-15T23:30:00Z" | datePart("day")', 'Europe/Berlin')).toBe(16);
    expect(await jq('"2024-06-15T23:30:00Z" | datePart("weekday"; "Europe/Berlin")')).toBe(7);
    expect(await jq('"2024-12-31T12:00:00Z" | datePart("yearday")')).toBe(366);
    expect((await jqError('"2024-06-15T23:30:00Z" | datePart("fortnight")')).message).toMatch(/unknown part "fortnight"/);
  });
});

describe('timeDiff', () => {
  it('is the input minus the argument, in seconds or the given unit', async () => {
    expect(await jq('"2024-06-16T00:00:00Z" | timeDiff("2024-06-15T12:00:00Z")')).toBe(43200);
    expect(await jq('"2024-06-16T00:00:00Z" | timeDiff("2024-06-15T12:00:00Z"; "hour")')).toBe(12);
    expect(await jq('"2024-06-15T00:00:00Z" | timeDiff("2024-06-16T00:00:00+02:00"; "day")')).toBeCloseTo(-11 / 12);
    expect(await jq('1718461845 | timeDiff(1718461785; "minute")')).toBe(1);
  });
});

describe('errors of the time functions', () => {
  it('names a value that is not a time and an unknown zone', async () => {
    expect((await jqError('"yesterday" | unixTime')).message).toMatch(/not a time: "yesterday"/);
    expect((await jqError('{} | roundTime("day")')).message).toMatch(/expected a time .* got object/);
    const zone = await jqError('0 | fromUnixTime("Mars/Olympus")');
    expect(zone.message).toMatch(/unknown time zone "Mars\/Olympus"/);
    expect(zone.status).toBe(400);
  });

  it('finds zones named only at run time', async () => {
    expect(await jq('0 | fromUnixTime("Asia/" + "Tokyo")')).toBe('1970-01-01T09:00:00+09:00');
  });
});

describe('authInfo', () => {
  it('is the caller, or null without one', async () => {
    expect(await jq('authInfo')).toEqual({ userId: '42', userName: 'ada', role: 'analyst' });
    expect(await jq('authInfo', 'UTC', { identity: null })).toBeNull();
  });
});

describe('querySvc', () => {
  function recorder(answer: (q: string, v: Record<string, unknown>) => unknown) {
    const calls: [string, Record<string, unknown>][] = [];
    return { calls, querySvc: async (q: string, v: Record<string, unknown>) => (calls.push([q, v]), answer(q, v)) };
  }

  it('returns the complete response of one query per call', async () => {
    const r = recorder(() => ({ data: { x: 1 }, extensions: {} }));
    expect(await jq('querySvc("{ x }")', 'UTC', r)).toEqual({ data: { x: 1 }, extensions: {} });
    expect(r.calls).toEqual([['{ x }', {}]]);
  });

  it('chains: variables of a later query come from an earlier answer', async () => {
    const r = recorder((q, v) => (q.includes('first') ? { data: { first: { id: 7 } } } : { data: { second: { id: v.id, name: `item ${String(v.id)}` } } }));
    const out = await jq('querySvc("{ first { id } }").data.first.id as $id | querySvc("query($id: Int) { second(id: $id) { name } }"; {id: $id}).data.second.name', 'UTC', r);
    expect(out).toBe('item 7');
    expect(r.calls.map((c) => c[1])).toEqual([{}, { id: 7 }]);
  });

  it('runs independent calls in one round and each distinct call once', async () => {
    const r = recorder((_q, v) => ({ data: { n: v.n } }));
    const out = await jq('[range(5) | querySvc("q"; {n: (. % 3)}).data.n]', 'UTC', r);
    expect(out).toEqual([0, 1, 2, 0, 1]);
    expect(r.calls.map((c) => c[1].n)).toEqual([0, 1, 2]);
  });

  it('a try in the program cannot swallow a pending call', async () => {
    const r = recorder(() => ({ data: { ok: true } }));
    expect(await jq('try querySvc("q").data.ok catch "caught"', 'UTC', r)).toBe(true);
  });

  it('stops after the round limit with a clear error', async () => {
    const r = recorder((_q, v) => ({ data: { next: Number(v.n) + 1 } }));
    const e = await jqError('def walk($n): querySvc("q"; {n: $n}).data.next as $m | if $m > 100 then $m else walk($m) end; walk(0)', 'UTC', r);
    expect(e.message).toMatch(/more than 16 rounds of querySvc/);
    expect(r.calls.length).toBe(15);
  });

  it('checks its arguments and needs a runner', async () => {
    expect((await jqError('querySvc(1)')).message).toMatch(/query text must be a string/);
    expect((await jqError('querySvc("q"; [1])')).message).toMatch(/variables must be an object/);
    expect((await jqError('querySvc("q")')).message).toMatch(/querySvc is not available/);
  });
});
