import { expect, it } from 'vitest';
import { Admission } from '../../src/executor/admission.js';
import { Cancellation } from '../../src/shared/request-scope.js';

it('a request cancellation calls the listeners still registered, once, and none added after it', () => {
  const c = new Cancellation();
  const calls: string[] = [];
  const kept = () => calls.push('kept');
  const removed = () => calls.push('removed');
  c.addEventListener('abort', kept, { once: true });
  c.addEventListener('abort', removed, { once: true });
  c.removeEventListener('abort', removed);
  expect(c.aborted).toBe(false);
  c.abort();
  c.abort();
  c.addEventListener('abort', () => calls.push('late'));
  expect(c.aborted).toBe(true);
  expect(calls).toEqual(['kept']);
});

it('a statement waiting for admission leaves the queue when its request is cancelled', async () => {
  const gate = new Admission('pool', { size: 1, share: 1, queue: 10, waitMs: 0 });
  let release!: () => void;
  const holding = gate.run('a', undefined, () => new Promise<void>((r) => (release = r)));
  const c = new Cancellation();
  let ran = false;
  const waiting = gate.run('a', c, async () => void (ran = true)).then(() => 'ran', (e: Error) => e.message);
  c.abort();
  expect(await waiting).toMatch(/cancel/i);
  release();
  await holding;
  expect(ran).toBe(false);
});
