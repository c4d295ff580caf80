// Compares the svc answer and the raw answer of a case: same rows after normalising key order and
// number formatting (5.00 vs 5, 25.560037834003310 vs 25.56003783400331).

const REL = 1e-9;

function numeric(v) {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v)) return Number(v);
  return null;
}

/** The differences between two JSON values, as `path: a != b` lines (at most `max`). */
export function differences(a, b, max = 10) {
  const out = [];
  const walk = (x, y, path) => {
    if (out.length >= max) return;
    const nx = numeric(x);
    const ny = numeric(y);
    if (nx !== null && ny !== null && (typeof x === 'number' || typeof y === 'number')) {
      if (Math.abs(nx - ny) > REL * Math.max(1, Math.abs(nx), Math.abs(ny))) out.push(`${path}: ${x} != ${y}`);
      return;
    }
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y)) return void out.push(`${path}: ${brief(x)} != ${brief(y)}`);
      if (x.length !== y.length) out.push(`${path}: ${x.length} rows != ${y.length} rows`);
      for (let i = 0; i < Math.min(x.length, y.length); i++) walk(x[i], y[i], `${path}[${i}]`);
      return;
    }
    if (x && y && typeof x === 'object' && typeof y === 'object') {
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      for (const k of [...keys].sort()) {
        if (!(k in x)) out.push(`${path}.${k}: missing in svc`);
        else if (!(k in y)) out.push(`${path}.${k}: missing in raw`);
        else walk(x[k], y[k], `${path}.${k}`);
      }
      return;
    }
    if (x !== y) out.push(`${path}: ${brief(x)} != ${brief(y)}`);
  };
  walk(a, b, '');
  return out;
}

function brief(v) {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** svc's `data` with the source prefix taken off the root field names (duck_orders → orders). */
export function unprefix(data, prefix) {
  const out = {};
  for (const [k, v] of Object.entries(data ?? {})) out[k.startsWith(prefix) ? k.slice(prefix.length) : k] = v;
  return out;
}
