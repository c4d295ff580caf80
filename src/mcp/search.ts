// `search`: modules, objects, functions and fields by meaning. With an embedder (EMBEDDER_URL) the
// `core.catalog` views rank by similarity, asked as the caller (their rows are already the role's,
// issue 17 item 2); without one, or when the role may not read `core.catalog`, a ranked text match
// over the role's own view. Either way only what the role's schema holds is answered.
import type { RequestContext } from '../executor/request-context.js';
import type { Entry, EntryKind, RoleView } from './role-view.js';
import type { GraphqlRunner } from './runner.js';

export interface Hit {
  readonly kind: EntryKind;
  readonly name: string;
  readonly description?: string;
  readonly module?: string;
  /** What to do next with it. */
  readonly next: string;
  readonly score?: number;
  readonly distance?: number;
}

/** Singular, lower-case words of a text (`order_items` -> order, item). */
function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1)
    .map((w) => (w.length > 3 && w.endsWith('ies') ? `${w.slice(0, -3)}y` : w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

const STOP = new Set(['the', 'of', 'and', 'in', 'by', 'for', 'to', 'a', 'an', 'with', 'which', 'what', 'who', 'is', 'are', 'on', 'at', 'per', 'all', 'most', 'me', 'show', 'list', 'find', 'their', 'its', 'has', 'have', 'do', 'does', 'did', 'how', 'many', 'much']);

const KIND_WEIGHT: Record<EntryKind, number> = { object: 1, module: 0.3, function: 0.4, field: 0 };

function next(e: Entry): string {
  if (e.kind === 'field') return `a field of ${e.name.split('.')[0]}: describe "${e.name.split('.')[0]}"`;
  if (e.kind === 'module') return `describe "${e.name}" to list its objects and functions`;
  // Where it is asked: `{ shop_customers { ... } }`, `{ core { catalog { types { ... } } } }`, `{ function { f(...) } }`.
  const place = e.places.get('list') ?? e.places.get('function') ?? [...e.places.values()][0];
  const at = place?.path.length ? ` (query it as ${place.root === 'mutation' ? 'mutation ' : ''}${[...place.path, place.field.name].join(' { ')}${' }'.repeat(place.path.length)})` : '';
  return `describe "${e.name}" for its fields and an example query${at}`;
}

const hitOf = (e: Entry, extra: Partial<Hit> = {}): Hit => ({
  kind: e.kind, name: e.name, ...(e.description ? { description: e.description } : {}), ...(e.module ? { module: e.module } : {}), next: next(e), ...extra,
});

/** Ranked text match: name words weigh more than description words; whole names more than parts. */
export function textSearch(view: RoleView, query: string, kinds: readonly EntryKind[], limit: number): Hit[] {
  const want = words(query).filter((w) => !STOP.has(w));
  if (!want.length) return [];
  // An object also matches by the names of its fields and relations ("customers and their orders").
  const fieldWords = new Map<string, Set<string>>();
  for (const e of view.entries) {
    if (e.kind !== 'field') continue;
    const [owner, own] = e.name.split('.') as [string, string];
    let set = fieldWords.get(owner);
    if (!set) fieldWords.set(owner, (set = new Set()));
    for (const w of words(own)) set.add(w);
  }
  const scored: { e: Entry; score: number }[] = [];
  for (const e of view.entries) {
    if (!kinds.includes(e.kind)) continue;
    // A field's own name weighs as a name; its object's name only places it.
    const [owner, own] = e.kind === 'field' ? [e.name.split('.')[0]!, e.name.split('.')[1]!] : ['', e.name];
    const nameWords = new Set(words(own));
    const ownerWords = new Set(words(owner));
    const descWords = new Set(words(e.description));
    const name = own.toLowerCase();
    let score = 0;
    for (const w of want) {
      if (nameWords.has(w)) score += 3;
      else if (ownerWords.has(w) || (e.kind === 'object' && fieldWords.get(e.name)?.has(w))) score += 1;
      else if (w.length >= 4 && name.includes(w)) score += 1.5;
      else if (descWords.has(w)) score += 1;
      else if (w.length >= 4 && [...descWords].some((d) => d.startsWith(w))) score += 0.5;
    }
    if (score > 0) scored.push({ e, score: score + KIND_WEIGHT[e.kind] });
  }
  scored.sort((a, b) => b.score - a.score || a.e.name.length - b.e.name.length || a.e.name.localeCompare(b.e.name));
  return scored.slice(0, limit).map(({ e, score }) => hitOf(e, { score: Math.round(score * 10) / 10 }));
}

const SIMILAR = `query($q: String!, $n: Int!) { core { catalog {
  types(args: {query: $q}, order_by: [{field: "distance"}], limit: $n) { name distance }
  fields(args: {query: $q}, order_by: [{field: "distance"}], limit: $n) { type_name name distance }
  modules(args: {query: $q}, order_by: [{field: "distance"}], limit: $n) { name distance }
} } }`;

interface Similar {
  core?: { catalog?: { types?: { name: string; distance: number }[]; fields?: { type_name: string; name: string; distance: number }[]; modules?: { name: string; distance: number }[] } };
}

/**
 * Similarity order from `core.catalog`, or undefined when it cannot be asked (no embedder, the
 * role may not read the views, the embedder failed): the caller then falls back to text.
 */
export async function similaritySearch(
  view: RoleView, runner: GraphqlRunner, caller: RequestContext, query: string, kinds: readonly EntryKind[], limit: number,
): Promise<Hit[] | undefined> {
  const request = { query: SIMILAR, variables: { q: query, n: limit * 3 } };
  if (runner.check(view, request, caller, 'query').length) return undefined;
  let value: unknown;
  try {
    ({ value } = await runner.run(view, caller, request, 'query'));
  } catch {
    return undefined;
  }
  const cat = (value as Similar)?.core?.catalog;
  if (!cat) return undefined;
  const found: Hit[] = [];
  const take = (e: Entry | undefined, distance: number) => {
    if (e && kinds.includes(e.kind) && !found.some((h) => h.kind === e.kind && h.name === e.name)) found.push(hitOf(e, { distance: Math.round(distance * 1000) / 1000 }));
  };
  const byKind = (kind: EntryKind, name: string) => view.entries.find((e) => e.kind === kind && e.name === name);
  const ranked = [
    ...(cat.types ?? []).map((t) => ({ d: t.distance, e: byKind('object', t.name) })),
    ...(cat.fields ?? []).map((f) => ({ d: f.distance, e: byKind('field', `${f.type_name}.${f.name}`) ?? byKind('function', f.name) })),
    ...(cat.modules ?? []).map((m) => ({ d: m.distance, e: byKind('module', m.name) })),
  ].sort((a, b) => a.d - b.d);
  for (const r of ranked) take(r.e, r.d);
  return found.slice(0, limit);
}
