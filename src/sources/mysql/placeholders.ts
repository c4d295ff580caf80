// The compiler writes numbered placeholders (`$1`, reused where one value appears twice); MySQL
// takes positional `?`. The text is rewritten once per statement, outside quoted text and comments,
// and the values are laid out in the order the `?` appear.

export interface PositionalSql {
  readonly sql: string;
  readonly params: unknown[];
}

export function positional(sql: string, params: readonly unknown[]): PositionalSql {
  const out: string[] = [];
  const values: unknown[] = [];
  let i = 0;
  let from = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      // Quoted text or identifier: doubled quotes and (in strings) backslash escapes stay inside.
      i++;
      while (i < sql.length) {
        if (sql[i] === '\\' && c === "'") i += 2;
        else if (sql[i] === c && sql[i + 1] === c) i += 2;
        else if (sql[i] === c) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
      continue;
    }
    if (c === '$' && /[0-9]/.test(sql[i + 1] ?? '')) {
      let j = i + 1;
      while (j < sql.length && /[0-9]/.test(sql[j]!)) j++;
      const n = Number(sql.slice(i + 1, j));
      if (n < 1 || n > params.length) throw new Error(`statement names parameter $${n} of ${params.length}`);
      out.push(sql.slice(from, i), '?');
      values.push(params[n - 1]);
      i = from = j;
      continue;
    }
    i++;
  }
  out.push(sql.slice(from));
  return { sql: out.join(''), params: values };
}
