import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time equality of two secrets. Both sides are hashed first so that neither the length
 * nor the content of the expected value leaks through timing.
 */
export function same(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}
