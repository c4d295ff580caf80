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
