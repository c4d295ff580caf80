// The entry gate's queue per caller (issue 31, MAX_REQUESTS_PER_CALLER): at most `limit` of a
// caller's requests run, the next wait in order, and only a full queue or an expired wait refuses.
import { describe, expect, it } from 'vitest';
import { CallerGate } from '../../src/http/caller-gate.js';

function request(gate: CallerGate, key: string, log: string[], name: string) {
  return gate.enter(key, () => log.push(`${name} runs`), (why) => log.push(`${name} ${why}`));
}

describe('CallerGate', () => {
  it('runs `limit` requests of a caller, queues the next in order, and lets other callers run', () => {
    const gate = new CallerGate({ limit: 2, queue: 10, waitMs: 0 });
    const log: string[] = [];
    for (const n of ['a1', 'a2', 'a3', 'a4']) request(gate, 'a', log, n);
    request(gate, 'b', log, 'b1');
    expect(log).toEqual(['a1 runs', 'a2 runs', 'b1 runs']);
    gate.leave('a');
    gate.leave('a');
    expect(log).toEqual(['a1 runs', 'a2 runs', 'b1 runs', 'a3 runs', 'a4 runs']);
    gate.leave('a');
    gate.leave('a');
    gate.leave('b');
    expect(gate.size).toBe(0);
  });

  it('refuses at once when the queue is full, and at the wait limit otherwise', async () => {
    const gate = new CallerGate({ limit: 1, queue: 1, waitMs: 30 });
    const log: string[] = [];
    request(gate, 'a', log, 'a1');
    request(gate, 'a', log, 'a2');
    request(gate, 'a', log, 'a3');
    expect(log).toEqual(['a1 runs', 'a3 queue_full']);
    await new Promise((r) => setTimeout(r, 60));
    expect(log).toEqual(['a1 runs', 'a3 queue_full', 'a2 wait_limit']);
    gate.leave('a');
    expect(gate.size).toBe(0);
  });

  it('takes a waiting request out of the queue when its client goes away', () => {
    const gate = new CallerGate({ limit: 1, queue: 5, waitMs: 0 });
    const log: string[] = [];
    request(gate, 'a', log, 'a1');
    const gone = request(gate, 'a', log, 'a2');
    request(gate, 'a', log, 'a3');
    gone();
    gate.leave('a');
    expect(log).toEqual(['a1 runs', 'a3 runs']);
  });

  it('answers the waiting requests at once when the server stops, and lets nothing more in', () => {
    const gate = new CallerGate({ limit: 1, queue: 5, waitMs: 0 });
    const log: string[] = [];
    request(gate, 'a', log, 'a1');
    request(gate, 'a', log, 'a2');
    gate.stop();
    request(gate, 'b', log, 'b1');
    gate.leave('a');
    expect(log).toEqual(['a1 runs', 'a2 stopping', 'b1 stopping']);
    expect(gate.size).toBe(0);
  });

  it('runs at most ANONYMOUS_MAX_REQUESTS of all anonymous callers together; signed-in callers are not held by them', () => {
    const gate = new CallerGate({ limit: 2, queue: 10, waitMs: 0, anonymous: 3 });
    const log: string[] = [];
    for (const n of ['x1', 'x2']) request(gate, 'addr:10.0.0.1', log, n);
    for (const n of ['y1', 'y2']) request(gate, 'addr:10.0.0.2', log, n);
    for (const n of ['z1']) request(gate, 'addr:10.0.0.3', log, n);
    request(gate, 'key:probe', log, 'p1');
    // x1, x2 and y1 hold the anonymous share (3); y2 and z1 wait; the signed-in caller runs.
    expect(log).toEqual(['x1 runs', 'x2 runs', 'y1 runs', 'p1 runs']);
    // A turn goes to the address with the fewest running: z (none) before y (one).
    gate.leave('addr:10.0.0.1');
    expect(log.slice(4)).toEqual(['z1 runs']);
    gate.leave('addr:10.0.0.1');
    expect(log.slice(5)).toEqual(['y2 runs']);
    for (const k of ['addr:10.0.0.2', 'addr:10.0.0.2', 'addr:10.0.0.3', 'key:probe']) gate.leave(k);
    expect(gate.size).toBe(0);
  });

  it('lets an anonymous caller in while another waits only for its own limit', () => {
    const gate = new CallerGate({ limit: 1, queue: 10, waitMs: 0, anonymous: 3 });
    const log: string[] = [];
    request(gate, 'addr:a', log, 'a1');
    request(gate, 'addr:a', log, 'a2');
    request(gate, 'addr:b', log, 'b1');
    expect(log).toEqual(['a1 runs', 'b1 runs']);
    gate.leave('addr:a');
    expect(log).toEqual(['a1 runs', 'b1 runs', 'a2 runs']);
  });

  it('runs one request per anonymous address (ANONYMOUS_MAX_REQUESTS_PER_ADDRESS): a second from the same address waits while another address runs', () => {
    const gate = new CallerGate({ limit: 4, queue: 10, waitMs: 0, anonymous: 4, perAddress: 1 });
    const log: string[] = [];
    request(gate, 'addr:a', log, 'a1');
    request(gate, 'addr:a', log, 'a2');
    request(gate, 'addr:b', log, 'b1');
    // Signed-in callers keep MAX_REQUESTS_PER_CALLER.
    for (const n of ['k1', 'k2']) request(gate, 'key:k', log, n);
    expect(log).toEqual(['a1 runs', 'b1 runs', 'k1 runs', 'k2 runs']);
    expect(gate.limitOf('addr:a')).toBe(1);
    expect(gate.limitOf('key:k')).toBe(4);
    gate.leave('addr:b');
    expect(log.slice(4)).toEqual([]);
    gate.leave('addr:a');
    expect(log.slice(4)).toEqual(['a2 runs']);
    for (const k of ['addr:a', 'key:k', 'key:k']) gate.leave(k);
    expect(gate.size).toBe(0);
    // 0: MAX_REQUESTS_PER_CALLER alone.
    const open = new CallerGate({ limit: 2, queue: 10, waitMs: 0, perAddress: 0 });
    const seen: string[] = [];
    for (const n of ['a1', 'a2', 'a3']) request(open, 'addr:a', seen, n);
    expect(seen).toEqual(['a1 runs', 'a2 runs']);
  });

  it('holds an anonymous address after a refusal (ANONYMOUS_REFUSAL_HOLD): its next request waits the hold, the shared anonymous turn is free at once', async () => {
    const gate = new CallerGate({ limit: 4, queue: 10, waitMs: 0, anonymous: 1, perAddress: 1 });
    const log: string[] = [];
    request(gate, 'addr:a', log, 'a1');
    request(gate, 'addr:a', log, 'a2');
    request(gate, 'addr:b', log, 'b1');
    expect(log).toEqual(['a1 runs']);
    // a1 was refused by a limit: b1 takes the one anonymous turn at once, a2 waits out the hold.
    gate.leave('addr:a', 60);
    expect(log).toEqual(['a1 runs', 'b1 runs']);
    gate.leave('addr:b');
    expect(log).toEqual(['a1 runs', 'b1 runs']);
    await new Promise((r) => setTimeout(r, 120));
    expect(log).toEqual(['a1 runs', 'b1 runs', 'a2 runs']);
    gate.leave('addr:a');
    expect(gate.size).toBe(0);
    // A signed-in caller is never held.
    const one = new CallerGate({ limit: 1, queue: 10, waitMs: 0 });
    const seen: string[] = [];
    request(one, 'key:k', seen, 'k1');
    request(one, 'key:k', seen, 'k2');
    expect(seen).toEqual(['k1 runs']);
    one.leave('key:k', 60);
    expect(seen).toEqual(['k1 runs', 'k2 runs']);
  });
});
