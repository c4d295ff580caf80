// The request's AsyncLocalStorage is on only while a request is inside it (issue 30: on Node 20 an
// enabled storage runs promise hooks for every promise in the process). Fails if a request entering
// after its connection closed (a cancelled prepared request sent on to Apollo) keeps it on for good.
import { expect, it } from 'vitest';
import { currentRequest, leaveRequest, RequestScope, requestStorageOn, runInRequest } from '../../src/shared/request-scope.js';

it('is on while a request is inside, off once every request left, and a request entering after it left does not keep it on', async () => {
  const a = new RequestScope('a');
  const b = new RequestScope('b');
  expect(runInRequest(a, () => currentRequest()?.id)).toBe('a');
  const inB = runInRequest(b, () => Promise.resolve().then(() => currentRequest()?.id));
  expect(await inB).toBe('b');
  expect(requestStorageOn()).toBe(true);
  leaveRequest(a);
  expect(requestStorageOn()).toBe(true);
  leaveRequest(b);
  leaveRequest(b);
  expect(requestStorageOn()).toBe(false);
  expect(currentRequest()).toBeUndefined();

  // Closed first, entered after: counted while it runs, off when it settles (or throws).
  const late = new RequestScope('late');
  leaveRequest(late);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const running = runInRequest(late, () => gate.then(() => currentRequest()?.id));
  expect(requestStorageOn()).toBe(true);
  release();
  expect(await running).toBe('late');
  await Promise.resolve();
  expect(requestStorageOn()).toBe(false);
  expect(() => runInRequest(late, () => { throw new Error('x'); })).toThrow('x');
  expect(requestStorageOn()).toBe(false);
  await expect(runInRequest(late, () => Promise.reject(new Error('y')))).rejects.toThrow('y');
  await Promise.resolve();
  expect(requestStorageOn()).toBe(false);
});
