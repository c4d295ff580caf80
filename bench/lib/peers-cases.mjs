// The systems of `npm run bench:peers` and how their answers reduce to the same tuples, so that
// "the same rows" can be checked across different field names and wrappers (PostGraphile's `nodes`,
// its grouped aggregates, svc's bucket aggregation).

/** Each system: where a case is sent and with which body (files written by the runner). */
export function SYSTEMS({ pglPort, basePort, svcPort, bodyFile }) {
  const svcBody = { Q0: 'svc-q0', Q1: 'svc-q1', Q3: 'svc-q3' };
  const pglBody = { Q0: 'pgl-q0', Q1: 'pgl-q1', Q3: 'pgl-q3-nodistinct' };
  const basePath = (kind) => ({ Q0: `/q0/${kind}`, Q1: `/${kind}`, Q3: `/q3/${kind}` });
  const rows = basePath('rows');
  const json = basePath('json');
  return [
    { id: 'svc', label: 'svc', url: () => `http://127.0.0.1:${svcPort}/query`, body: (c) => bodyFile(svcBody[c]) },
    { id: 'pgl', label: 'PostGraphile 5', url: () => `http://127.0.0.1:${pglPort}/graphql`, body: (c) => bodyFile(pglBody[c]) },
    { id: 'rows', label: 'hand-written rows', url: (c) => `http://127.0.0.1:${basePort}${rows[c]}`, body: () => bodyFile('empty') },
    { id: 'json', label: 'hand-written JSON in SQL', url: (c) => `http://127.0.0.1:${basePort}${json[c]}`, body: () => bodyFile('empty') },
  ];
}

/** Objects become the list of their values (selections are written in the same order everywhere). */
function canon(v) {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === 'nodes') return canon(v.nodes);
    return keys.map((k) => canon(v[k]));
  }
  return v;
}

/** The answer of one system to one case as tuples. */
export function extract(c, system, answer) {
  const root = Object.values(answer.data ?? {})[0];
  if (c !== 'Q3') return canon(root);
  const groups = system === 'svc'
    ? root.map((g) => [g.key.l_returnflag, g.key.l_linestatus, g.aggregations.l_quantity.sum, g.aggregations.l_extendedprice.sum,
      g.aggregations.l_quantity.avg, g.aggregations.l_extendedprice.avg, g.aggregations.l_discount.avg])
    : root.groupedAggregates.map((g) => [...g.keys, g.sum.lQuantity, g.sum.lExtendedprice, g.average.lQuantity, g.average.lExtendedprice, g.average.lDiscount]);
  return groups.sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));
}

/** Deep equality; numbers and numeric strings compare as numbers (relative 1e-9: averages differ in digits). */
export function sameRows(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameRows(x, b[i]));
  }
  if (a === b) return true;
  if (a === null || b === null || typeof a === 'object' || typeof b === 'object') return false;
  const x = Number(a);
  const y = Number(b);
  if (String(a).trim() !== '' && String(b).trim() !== '' && Number.isFinite(x) && Number.isFinite(y)) {
    return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
  }
  return String(a) === String(b);
}
