import { expect, it } from 'vitest';
import { Semaphore } from '../../src/shared/semaphore.js';

it('runs at most `limit` tasks at once, in order, and keeps going after a failure', async () => {
  const s = new Semaphore(2);
  let running = 0;
  let peak = 0;
  const order: number[] = [];
  const task = (i: number) => s.run(async () => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, 5));
    order.push(i);
    running--;
    if (i === 3) throw new Error('boom');
    return i;
  });
  const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map(task));
  expect(peak).toBe(2);
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
  expect(order.slice(0, 2).sort()).toEqual([1, 2]);
});

it('is unlimited with 0', async () => {
  const s = new Semaphore(0);
  let running = 0;
  let peak = 0;
  await Promise.all(Array.from({ length: 10 }, () => s.run(async () => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, 5));
    running--;
  })));
  expect(peak).toBe(10);
});

it('gives the slot back when a task throws before its promise, and hands it to a waiter before a newcomer', async () => {
  const s = new Semaphore(1);
  // Taken and run at once (no promise of its own in between, issue 30): a throw is a rejection and frees the slot.
  await expect(s.run(() => {
    throw new Error('at once');
  })).rejects.toThrow('at once');
  let finish!: () => void;
  const first = s.run(() => new Promise<void>((r) => (finish = r)));
  const order: string[] = [];
  const waiter = s.run(async () => void order.push('waiter'));
  finish();
  // Arrives after the first task finished but before the waiter resumed: it still goes after it.
  await Promise.resolve();
  const newcomer = s.run(async () => void order.push('newcomer'));
  await Promise.all([first, waiter, newcomer]);
  expect(order).toEqual(['waiter', 'newcomer']);
  // Every slot came back: a task runs at once again.
  let ran = false;
  s.run(async () => void (ran = true));
  expect(ran).toBe(true);
});
