// Admission in front of a pool (issue 31 item 1): a role holds at most its share of the
// connections, its queue is bounded, a waiter is refused at the wait limit or when its client goes
// away, and a role at its share never blocks another role behind it.
import { describe, expect, it } from 'vitest';
import { Admission, admissionKey } from '../../src/executor/admission.js';

/** A task that runs until `finish()` is called. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  return { task: () => done, finish };
}

const refusal = (p: Promise<unknown>) => p.then(() => 'admitted', (e: { code?: string; message: string }) => `${e.code}: ${e.message}`);

describe('Admission', () => {
  it('lets one role hold only its share; another role still gets a connection at once', async () => {
    const gate = new Admission('duckdb', { size: 4, share: 0.5, queue: 8, waitMs: 0 });
    const a = held();
    const anon = [gate.run('anonymous', undefined, a.task), gate.run('anonymous', undefined, a.task)];
    const third = gate.run('anonymous', undefined, async () => 'third');
    expect(gate.admitted).toBe(2);
    expect(gate.queued).toBe(1);
    // A signed-in role is not queued behind the anonymous one.
    expect(await gate.run('role:admin', undefined, async () => 'probe')).toBe('probe');
    a.finish();
    await Promise.all(anon);
    expect(await third).toBe('third');
    expect(gate.admitted).toBe(0);
  });

  it('refuses at once when the role already has its queue full, and at the wait limit otherwise', async () => {
    const gate = new Admission('pg', { size: 1, share: 1, queue: 1, waitMs: 30 });
    const a = held();
    const running = gate.run('anonymous', undefined, a.task);
    const waiting = refusal(gate.run('anonymous', undefined, async () => 1));
    expect(await refusal(gate.run('anonymous', undefined, async () => 1))).toBe('SOURCE_UNAVAILABLE: data source "pg" is busy: 1 statements of the same role are already waiting; try again');
    expect(await waiting).toBe('SOURCE_UNAVAILABLE: data source "pg" is busy: no connection was free within 30 ms; try again');
    expect(gate.queued).toBe(0);
    a.finish();
    await running;
  });

  it('drops a waiter whose client went away, and never admits it later', async () => {
    const gate = new Admission('duckdb', { size: 1, share: 1, queue: 4, waitMs: 0 });
    const a = held();
    const running = gate.run('anonymous', undefined, a.task);
    const abort = new AbortController();
    let ran = false;
    const waiting = refusal(gate.run('anonymous', abort.signal, async () => (ran = true)));
    abort.abort();
    expect(await waiting).toMatch(/^QUERY_FAILED: the request was cancelled/);
    a.finish();
    await running;
    expect(ran).toBe(false);
    expect(gate.admitted + gate.queued).toBe(0);
  });

  it('keeps at least one connection per role, whatever the share', () => {
    expect(new Admission('x', { size: 1, share: 0.5, queue: 1, waitMs: 0 }).perCaller).toBe(1);
    expect(new Admission('x', { size: 10, share: 0.5, queue: 1, waitMs: 0 }).perCaller).toBe(5);
  });

  it('gives anonymous callers together their own, smaller share (ANONYMOUS_SOURCE_SHARE)', async () => {
    const gate = new Admission('duckdb', { size: 4, share: 0.5, anonymousShare: 0.25, queue: 8, waitMs: 0 });
    expect(gate.perAnonymous).toBe(1);
    const a = held();
    const first = gate.run('anonymous', undefined, a.task);
    const second = gate.run('anonymous', undefined, async () => 'second');
    expect(gate.admitted).toBe(1);
    expect(gate.queued).toBe(1);
    // A signed-in role still holds two.
    const b = held();
    const roles = [gate.run('role:admin', undefined, b.task), gate.run('role:admin', undefined, b.task)];
    expect(gate.admitted).toBe(3);
    a.finish();
    b.finish();
    await Promise.all([first, ...roles]);
    expect(await second).toBe('second');
    expect(new Admission('x', { size: 10, share: 0.5, anonymousShare: 0.25, queue: 1, waitMs: 0 }).perAnonymous).toBe(2);
    expect(new Admission('x', { size: 1, share: 0.5, anonymousShare: 0.25, queue: 1, waitMs: 0 }).perAnonymous).toBe(1);
  });

  it('counts anonymous callers apart from signed-in callers of the same role', () => {
    expect(admissionKey({ role: 'admin', authType: 'anonymous' })).toBe('anonymous');
    expect(admissionKey({ role: 'admin', authType: 'apikey' })).toBe('role:admin');
    expect(admissionKey({ role: 'admin', authType: 'jwt' })).toBe('role:admin');
  });
});

describe('Admission within a role', () => {
  it('gives the next connection to the user of the role with the fewest statements running', async () => {
    const gate = new Admission('duckdb', { size: 1, share: 1, queue: 8, waitMs: 0 });
    const a = held();
    const order: string[] = [];
    const first = gate.run('anonymous', undefined, a.task, 'addr:1');
    const burst = [1, 2, 3].map((i) => gate.run('anonymous', undefined, async () => void order.push(`a${i}`), 'addr:1'));
    const other = gate.run('anonymous', undefined, async () => void order.push('b'), 'addr:2');
    a.finish();
    await Promise.all([first, ...burst, other]);
    // Before per-user fairness: a1 a2 a3 b (arrival order within the role).
    expect(order[0]).toBe('b');
  });
});

describe('Admission without a wait', () => {
  it('runs a task admitted at once in the same turn, and gives the slot back when it settles or throws', async () => {
    const gate = new Admission('pg', { size: 1, share: 1, queue: 4, waitMs: 0 });
    let ran = false;
    const p = gate.run('role:a', undefined, async () => void (ran = true));
    // In at once: no promise of the gate's own before the task (issue 30).
    expect(ran).toBe(true);
    expect(gate.admitted).toBe(1);
    await p;
    expect(gate.admitted).toBe(0);
    await expect(gate.run('role:a', undefined, () => {
      throw new Error('at once');
    })).rejects.toThrow('at once');
    expect(gate.admitted).toBe(0);
    await expect(gate.run('role:a', undefined, async () => {
      throw new Error('later');
    })).rejects.toThrow('later');
    expect(gate.admitted + gate.queued).toBe(0);
  });
});
