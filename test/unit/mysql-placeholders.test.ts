// The MySQL source sends the compiler's numbered placeholders as positional `?` (src/sources/mysql):
// text inside quotes and comments is never taken for a placeholder, and reused numbers repeat values.
import { describe, expect, it } from 'vitest';
import { positional } from '../../src/sources/mysql/placeholders.js';

describe('positional placeholders', () => {
  it('lays values out in the order the placeholders appear, repeating reused ones', () => {
    expect(positional('SELECT $2, $1, $2', ['a', 'b'])).toEqual({ sql: 'SELECT ?, ?, ?', params: ['b', 'a', 'b'] });
  });

  it('leaves $n inside strings, identifiers and comments alone', () => {
    const sql = `SELECT '$1', "$1", \`$1\`, 'it''s $1', 'back\\'slash $1' -- $1\n, /* $1 */ $1`;
    expect(positional(sql, ['v'])).toEqual({ sql: sql.replace(/\$1$/, '?'), params: ['v'] });
  });

  it('refuses a placeholder without a value', () => {
    expect(() => positional('SELECT $3', ['a'])).toThrow(/\$3 of 1/);
  });
});
