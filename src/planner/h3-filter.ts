// H3Cell filter operators beyond eq/in/is_null (issue 17 item 7), planned as ordinary comparisons
// of the cell's hex text, so every dialect runs them without an H3 extension and a B-tree index on
// the column serves them:
// - `contains: c`: the row's cell is c or one of its ancestors: `IN` c's ancestors (at most 16).
// - `within: p`: the row's cell is p or one of its descendants. The descendants of p at resolution r
//   are one range of indexes (same mode, resolution and digits down to p's, any digits below), and
//   H3 hex texts are 15 lowercase characters, so text order is numeric order: one BETWEEN per r.
// - `grid_disk: {cell, k}`: within k grid steps of cell: `IN` H3's grid disk (k at most 20: 1261 cells).
// - `resolution: r`: the resolution nibble, the second hex character.
import { ErrorCode, PublicError } from '../shared/errors.js';
import { h3 } from '../shared/h3.js';
import type { Expr } from './ir/expr.js';
import type { FilterNode } from './ir/filter.js';

export const H3_OPERATORS = new Set(['within', 'contains', 'grid_disk', 'resolution']);
const MAX_K = 20;

const bad = (where: string, message: string) => new PublicError(ErrorCode.BadUserInput, `filter "${where}": ${message}`);

function cellOf(where: string, v: unknown): string {
  const c = String(v ?? '').toLowerCase();
  if (!h3().isValidCell(c)) throw bad(where, `"${String(v).slice(0, 40)}" is not an H3 cell`);
  return c;
}

const cmp = (op: string, left: Expr, value: unknown): FilterNode => ({ kind: 'compare', op, left, right: { kind: 'param', value, scalar: 'H3Cell' }, scalar: 'H3Cell', list: false });

/** The range of indexes of `parent`'s descendants at resolution `r`, as hex texts. */
function descendants(parent: string, r: number): [string, string] {
  const p = BigInt(`0x${parent}`);
  const rp = h3().getResolution(parent);
  const below = 3n * BigInt(15 - rp);
  // Resolution field set to r; digits rp+1..r from 0 (low) or 6 (high); digits below r stay 7.
  const base = (p & ~(0xfn << 52n) & ~((1n << below) - 1n)) | (BigInt(r) << 52n);
  let lo = base;
  let hi = base;
  for (let d = rp + 1; d <= 15; d++) {
    const shift = 3n * BigInt(15 - d);
    const [l, h] = d <= r ? [0n, 6n] : [7n, 7n];
    lo |= l << shift;
    hi |= h << shift;
  }
  return [lo.toString(16), hi.toString(16)];
}

export function h3Filter(where: string, left: Expr, op: string, value: unknown): FilterNode {
  switch (op) {
    case 'contains': {
      const c = cellOf(where, value);
      const ancestors = Array.from({ length: h3().getResolution(c) + 1 }, (_, r) => h3().cellToParent(c, r));
      return cmp('in', left, ancestors);
    }
    case 'within': {
      const p = cellOf(where, value);
      const items: FilterNode[] = [];
      for (let r = h3().getResolution(p); r <= 15; r++) {
        const [lo, hi] = descendants(p, r);
        items.push({ kind: 'and', items: [cmp('gte', left, lo), cmp('lte', left, hi)] });
      }
      return { kind: 'or', items };
    }
    case 'grid_disk': {
      const { cell, k } = (value ?? {}) as { cell?: unknown; k?: unknown };
      const steps = Number(k ?? 1);
      if (!Number.isInteger(steps) || steps < 0 || steps > MAX_K) throw bad(where, `k must be an integer from 0 to ${MAX_K}, not ${String(k)}`);
      return cmp('in', left, h3().gridDisk(cellOf(where, cell), steps).sort());
    }
    case 'resolution': {
      const r = Number(value);
      if (!Number.isInteger(r) || r < 0 || r > 15) throw bad(where, `resolution must be an integer from 0 to 15, not ${String(value)}`);
      return cmp('like', left, `8${r.toString(16)}%`);
    }
  }
  throw bad(where, `unknown H3Cell operator "${op}"`);
}
