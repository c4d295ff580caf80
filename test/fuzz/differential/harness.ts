// The differential check of one random query (generator.ts): the answer the fast path writes is
// compared, as response text, with the answer of the general path for the same query on the same
// server, and (PostgreSQL, MySQL) with the answer of a server that reads one JSON document per
// statement (SQL_ROWS=false). The general path is forced without a switch of its own: one more root
// field that is not a catalog read (`_module`) sends the whole operation through graphql-js
// (src/pipeline/fast-path/shape.ts), and its key is cut out of the text before comparing.
// A mismatch is cut down (minimise) to the smallest query that still shows it.
import type { GraphQLSchema } from 'graphql';
import type { Reply, TestApp } from '../../support/app.js';
import { type Query, type Sel, QueryGenerator, random, render } from './generator.js';

/** Text a database driver writes (PostgreSQL, DuckDB, MySQL): never in a message a client sees. */
export const DATABASE_TEXT = /SQLSTATE|syntax error at|Binder Error|Parser Error|Catalog Error|Conversion Error|relation "[^"]*" does not exist|\bpg_[a-z]|\bSELECT\b.*\bFROM\b|\bINSERT INTO\b|\bUPDATE \S+ SET\b|You have an error in your SQL|ER_[A-Z_]+/;


const EXTRA = 'zz_general: _module(name: "zz.none") { __typename }';
const EXTRA_TEXT = ',"zz_general":null';

export interface Target {
  /** The server under test (SQL_ROWS on: rows written by the fast path). */
  readonly fast: TestApp;
  /** A server on the same database reading one JSON document per statement, if the dialect has one. */
  readonly json?: TestApp;
  readonly headers: Record<string, string>;
}

export const normal = (text: string) => text.replace(/"request_id":"[^"]*"/g, '"request_id":"-"');

/**
 * The text with its errors in a fixed order. graphql-js records errors in the order its promises
 * settle, so where one root field fails in its resolver and another while its value is completed, the
 * order differs between runs of the general path itself; only that difference is forgiven.
 */
function errorsSorted(text: string): string {
  try {
    const body = JSON.parse(text) as { errors?: unknown[] };
    if (!body.errors) return text;
    body.errors = body.errors.map((e) => JSON.stringify(e)).sort().map((e) => JSON.parse(e));
    return JSON.stringify(body);
  } catch {
    return text;
  }
}

/**
 * The answer with every list's items in a fixed order, for queries with a list in the database's own
 * order (no order_by on its key, bucket aggregations, `list` aggregates): MariaDB groups in a different
 * order from one run of the same statement to the next. Wide integers stay text, so they compare exactly.
 */
function unordered(text: string): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort).map((x) => JSON.stringify(x)).sort().map((x) => JSON.parse(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sort(x)]));
    return v;
  };
  try {
    return JSON.stringify(sort(JSON.parse(text.replace(/([:[,])(-?\d{16,}(?:\.\d+)?(?:[eE][-+]?\d+)?)(?=[,\]}])/g, '$1"#$2"'))));
  } catch {
    return text;
  }
}

/** Equal as text, or differing only in the order of the errors (counted, not a failure). */
export function same(a: string, b: string, counts: { errorOrder: number; unordered: number }, ordered = true): boolean {
  if (a === b) return true;
  if (errorsSorted(a) === errorsSorted(b)) {
    counts.errorOrder++;
    return true;
  }
  if (!ordered && unordered(errorsSorted(a)) === unordered(errorsSorted(b))) {
    counts.unordered++;
    return true;
  }
  return false;
}

/** How often the paths' answers differed only in the order of their errors. */
export const forgiven = { errorOrder: 0, unordered: 0 };

export interface Outcome {
  /** What differs or is wrong, one line each; empty when all is well. */
  readonly problems: string[];
  /** VALUE_NOT_REPRESENTABLE errors seen (allowed, reported). */
  readonly valueErrors: string[];
  readonly fast: string;
}

/**
 * What is wrong with one answer whatever it is compared with: a 5xx, database text in a message, an
 * internal error. A stored value its scalar cannot carry (NaN, an infinity, a 2-D array under [Int]) is
 * the data's problem, answered as such (src/pipeline/value-errors.ts): noted in `valueErrors`.
 */
export function scan(name: string, r: Reply, problems: string[], valueErrors: string[]): void {
  if (r.status >= 500) problems.push(`${name}: status ${r.status}`);
  for (const e of (r.body?.errors ?? []) as { message: string; extensions?: { code?: string } }[]) {
    if (DATABASE_TEXT.test(e.message)) problems.push(`${name}: database text: ${e.message}`);
    if (e.extensions?.code === 'VALUE_NOT_REPRESENTABLE') valueErrors.push(e.message);
    if (e.extensions?.code === 'INTERNAL_SERVER_ERROR') problems.push(`${name}: internal error: ${e.message}`);
  }
}

/** A fixed query's text (one operation, no fragments) with the extra root field before its last brace. */
function withExtra(text: string): string {
  const end = text.lastIndexOf('}');
  return `${text.slice(0, end)} ${EXTRA} }`;
}

/** Runs `q` (a generated query, or a fixed one's text) on every path and compares. */
export async function check(t: Target, q: Query | string, ordered: boolean): Promise<Outcome> {
  const { text, variables } = typeof q === 'string' ? { text: q, variables: {} } : render(q);
  const general = typeof q === 'string' ? { text: withExtra(q), variables: {} } : render(q, EXTRA);
  const a1 = await t.fast.gql(text, variables, t.headers);
  // The second request of the same text is answered by the prepared route (no Apollo).
  const a2 = await t.fast.gql(text, variables, t.headers);
  const g = await t.fast.gql(general.text, general.variables, t.headers);
  const b = t.json ? await t.json.gql(text, variables, t.headers) : undefined;
  const problems: string[] = [];
  const valueErrors: string[] = [];
  const fast = normal(a1.text);
  for (const [name, r] of [['fast', a1], ['prepared', a2], ['general', g], ['json', b]] as const) if (r) scan(name, r, problems, valueErrors);
  if (!same(normal(a2.text), fast, forgiven, ordered)) problems.push(`prepared differs from fast:\n    fast     ${fast}\n    prepared ${normal(a2.text)}`);
  // The extra root field adds one to the request's estimated cost: a refusal names its cost.
  const gText = normal(g.text).replace(EXTRA_TEXT, '').replace(/estimated cost of (\d+)/, (_m, n: string) => `estimated cost of ${Number(n) - 1}`);
  if (a1.status !== g.status || !same(gText, fast, forgiven, ordered)) problems.push(`general differs from fast:\n    fast    ${fast}\n    general ${gText}`);
  if (b && ordered && (a1.status !== b.status || !same(normal(b.text), fast, forgiven))) problems.push(`json (SQL_ROWS=false) differs from fast:\n    fast ${fast}\n    json ${normal(b.text)}`);
  return { problems, valueErrors, fast };
}

/** The kind of a problem (its first words), which minimising keeps. */
const kindOf = (p: string) => p.split(':')[0]!.split(' differs')[0]!;

/** An order argument: kept while minimising a query of a `total` run, whose lists are all ordered. */
const ORDER_ARG = /^(nested_)?order_by:/;

/** Each way to make `q` one step smaller: a root, a selection, an argument or a directive less. */
function* smaller(q: Query, total: boolean): Generator<Query> {
  const clone = (): Query => structuredClone(q);
  for (let i = 0; i < q.roots.length; i++) {
    if (q.roots.length > 1) {
      const c = clone();
      c.roots.splice(i, 1);
      yield c;
    }
  }
  // Every selection by its path of indexes.
  const paths: number[][] = [];
  const walk = (xs: readonly Sel[], path: number[]) => xs.forEach((s, i) => {
    paths.push([...path, i]);
    if (s.sub) walk(s.sub, [...path, i]);
  });
  walk(q.roots, []);
  const at = (c: Query, path: number[]): { list: Sel[]; i: number } => {
    let list = c.roots;
    for (const i of path.slice(0, -1)) list = list[i]!.sub!;
    return { list, i: path[path.length - 1]! };
  };
  for (const path of paths.reverse()) {
    {
      const c = clone();
      const { list, i } = at(c, path);
      if (list.length > 1) {
        list.splice(i, 1);
        yield c;
      }
    }
    const s = at(q, path);
    const sel = s.list[s.i]!;
    for (let k = 0; k < sel.args.length; k++) {
      if (total && ORDER_ARG.test(sel.args[k]!.text)) continue;
      const c = clone();
      const { list, i } = at(c, path);
      list[i]!.args.splice(k, 1);
      yield c;
    }
    if (sel.directive) {
      const c = clone();
      const { list, i } = at(c, path);
      delete list[i]!.directive;
      yield c;
    }
    // A fragment replaced by its selections.
    if (sel.fragment || sel.head.startsWith('...')) {
      const c = clone();
      const { list, i } = at(c, path);
      list.splice(i, 1, ...(list[i]!.sub ?? []));
      yield c;
    }
  }
}

/** The smallest query (greedy, one step at a time) that still shows a problem of the same kind. */
export async function minimise(checker: Checker, q: Query, ordered: boolean, problems: string[], total = false): Promise<Query> {
  const kinds = new Set(problems.map(kindOf));
  let best = q;
  for (let round = 0; round < 200; round++) {
    let found = false;
    for (const c of smaller(best, total)) {
      const o = await checker(c, ordered);
      if (o.problems.some((p) => kinds.has(kindOf(p)))) {
        best = c;
        found = true;
        break;
      }
    }
    if (!found) break;
  }
  return best;
}

/** `svc_fast_path_total` by outcome (written from rows, spliced, completed, general): what the run reached. */
export async function outcomes(app: TestApp, headers: Record<string, string>): Promise<Record<string, number>> {
  const r = await app.request({ method: 'GET', url: '/metrics', headers });
  const out: Record<string, number> = {};
  for (const m of r.text.matchAll(/^svc_fast_path_total\{outcome="([a-z]+)"\} (\d+)/gm)) out[m[1]!] = Number(m[2]);
  return out;
}

export interface Run {
  readonly failures: string[];
  readonly valueErrors: Set<string>;
  readonly clean: number;
}

/** One query checked: the paths of one source against each other (check), or sources against each other. */
export type Checker = (q: Query | string, ordered: boolean) => Promise<Outcome>;

/**
 * `runs` random queries of the source `prefix` from `seed`, each checked (a Target: its paths compared,
 * see check); mismatches minimised. `total` asks the generator for queries whose answers do not depend
 * on the order a database reads rows in (generator.ts).
 */
export async function fuzz(schema: GraphQLSchema, prefix: string, t: Target | Checker, seed: number, runs: number, leftOut?: ReadonlySet<string>, total = false): Promise<Run> {
  const checker: Checker = typeof t === 'function' ? t : (q, ordered) => check(t, q, ordered);
  const gen = new QueryGenerator(schema, prefix, random(seed), leftOut, total);
  const failures: string[] = [];
  const valueErrors = new Set<string>();
  let clean = 0;
  for (let i = 0; i < runs; i++) {
    const q = gen.query();
    const ordered = gen.ordered;
    const o = await checker(q, ordered);
    for (const e of o.valueErrors) valueErrors.add(e.replace(/^the value at \S+ is /, ''));
    if (!o.fast.includes('"errors"')) clean++;
    if (!o.problems.length) continue;
    const small = await minimise(checker, q, ordered, o.problems, total);
    const again = await checker(small, ordered);
    const r = render(small);
    failures.push(`#${i} (seed ${seed}) ${r.text}\n  variables ${JSON.stringify(r.variables)}\n  ${(again.problems.length ? again.problems : o.problems).join('\n  ')}`);
    if (failures.length >= 8) break;
  }
  return { failures, valueErrors, clean };
}
