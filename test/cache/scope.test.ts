// One cache-key scope (issue 27): /jq-query's entries are scoped by the same function as field
// results' keys (src/cache/keys.ts cacheScope), so the two cannot drift apart.
import { describe, expect, it } from 'vitest';
import { cacheScope, stableJson } from '../../src/cache/keys.js';
import { callerScope } from '../../src/jq/cache.js';

describe('the cache scope', () => {
  it("is the field results' scope for /jq-query too", () => {
    const vars = { user_id: '7', user_name: 'ada' };
    expect(callerScope('analyst', vars, 'Europe/Berlin')).toBe(cacheScope({ role: 'analyst', auth: stableJson(vars), timezone: 'Europe/Berlin' }));
  });

  it('tells callers, zones and roles apart', () => {
    const a = callerScope('analyst', { user_id: '7' }, 'UTC');
    expect(callerScope('analyst', { user_id: '8' }, 'UTC')).not.toBe(a);
    expect(callerScope('analyst', { user_id: '7' }, 'Europe/Berlin')).not.toBe(a);
    expect(callerScope('admin', { user_id: '7' }, 'UTC')).not.toBe(a);
    expect(a.startsWith('analyst:')).toBe(true);
  });
});
