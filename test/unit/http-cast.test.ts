// An http source's answer that is not the declared type (issue 31): the error names the field and
// the kind of value found, never the remote's value (it may hold what the caller may not see).
import { describe, expect, it } from 'vitest';
import { castTo } from '../../src/sources/http/cast.js';

const ctx = { source: 'wx', structs: new Map() };
const message = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('castTo', () => {
  it('names the kind of a mistyped value, not the value', () => {
    expect(message(() => castTo(ctx, 'Int', false, 'secret-value-123'))).toBe('http source "wx": the answer at the top is a string, not Int');
    expect(message(() => castTo(ctx, 'Boolean', false, { token: 'secret-value-123' }))).not.toContain('secret-value-123');
  });
});
