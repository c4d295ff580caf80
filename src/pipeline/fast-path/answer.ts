// The fast path's one step, shared by the Apollo plugin (plugin.ts) and the prepared-operation
// route (prepared.ts): run every root field of a query operation through its own resolver
// (permission guard, plan cache, result cache, @stats, the executor), then complete the answers
// without graphql-js when that is provably the same answer.
import {
  type DocumentNode, type FragmentDefinitionNode, type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema, Kind,
  type OperationDefinitionNode, getArgumentValues,
} from 'graphql';
import type { RequestContext } from '../../executor/request-context.js';
import { accessOf, scopeOf } from '../../permissions/access.js';
import { RawJson, StreamedList, stringifyJson } from '../../shared/json.js';
import { RowsAnswer } from '../../sql/rows/answer.js';
import { fastPathAnswers } from '../metrics.js';
import { StreamedRows, itemOf } from '../streamed-rows.js';
import { completesToItself, complete } from './complete.js';
import { ShapeCache } from './shape-cache.js';
import type { OperationShape, RootShape } from './shape.js';
import { rowsWriter } from './write.js';

type Settled = { readonly value: unknown } | { readonly error: unknown };

/** Arguments of root fields of operations without variables: the same on every request. */
const constantArgs = new WeakMap<object, Record<string, unknown>>();

/** The root field's resolver called as graphql-js would call it. */
function runRoot(
  schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: GraphQLResolveInfo['fragments'], ctx: RequestContext,
  variables: Record<string, unknown>, root: RootShape,
): Promise<unknown> {
  const query = schema.getQueryType()!;
  const info: GraphQLResolveInfo = {
    fieldName: root.field.name, fieldNodes: root.nodes, returnType: root.field.type, parentType: query,
    path: { prev: undefined, key: root.key, typename: query.name }, schema, fragments, rootValue: undefined, operation, variableValues: variables,
  };
  const node = root.nodes[0]!;
  let args = constantArgs.get(node);
  if (!args) {
    args = getArgumentValues(root.field, node, variables);
    if (!operation.variableDefinitions?.length) constantArgs.set(node, args);
  }
  const resolve = root.field.resolve as GraphQLFieldResolver<unknown, RequestContext>;
  return Promise.resolve(resolve(undefined, args, ctx, info));
}

const fragmentCache = new WeakMap<DocumentNode, GraphQLResolveInfo['fragments']>();

function fragmentsOf(document: DocumentNode): GraphQLResolveInfo['fragments'] {
  let out = fragmentCache.get(document) as Record<string, FragmentDefinitionNode> | undefined;
  if (!out) {
    out = {};
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) out[d.name.value] = d;
    fragmentCache.set(document, out);
  }
  return out;
}

/** The completed answer of one root field, or undefined when graphql-js must complete it. */
function completed(root: RootShape, value: unknown): unknown {
  // Rows written as the database gave them, as a spliced list is (src/pipeline/streamed.ts).
  if (value instanceof StreamedList) {
    // Its rows are written as the list read whole writes them: the same bytes, the same errors.
    const item = itemOf(root.out);
    if (item) value.completion = new StreamedRows(item, value.path, root.nodes);
    return value;
  }
  if (value instanceof RowsAnswer) {
    // The answer written once from the rows, completion checked and budget counted on the way
    // (write.ts); where that cannot be proven, the objects are completed below as before.
    const writer = rowsWriter(value.assembler, root.out);
    const text = writer && value.writeWith(writer);
    if (text !== undefined) return new WrittenJson(text);
  }
  const raw = value instanceof RawJson && !(value instanceof RowsAnswer) ? value : undefined;
  const parsed = value instanceof RawJson ? value.parse() : value;
  try {
    // The database's JSON completes to itself: written as JSON.stringify writes the parsed value, as
    // the general path does, not as the database spelled it (DuckDB writes `7.0`, `1e21`, `\u001F`,
    // a JSON column's duplicate keys): the answer's bytes do not depend on the path (issue 31).
    if (completesToItself(root.out, parsed)) return raw ? new RawJson(stringifyJson(parsed)) : parsed;
    return complete(root.out, parsed);
  } catch {
    return undefined;
  }
}

/** An answer text written from rows (`svc_fast_path_total{outcome="written"}`). */
class WrittenJson extends RawJson {}

const shapes = new ShapeCache();

/**
 * The operation's `data` in response order (values may be RawJson text), `undefined` when the fast
 * path does not apply (nothing was run), or `null` when the answers were fetched but graphql-js
 * must complete them: they wait in `ctx.prefetched`, so the database is not asked twice.
 */
export async function answerFast(
  schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>, ctx: RequestContext,
): Promise<Record<string, unknown> | null | undefined> {
  const fragments = fragmentsOf(document);
  // The same access decisions as the field guard (src/permissions/access.ts).
  const scope = scopeOf(schema);
  if (!scope) return undefined;
  const shape: OperationShape | undefined = shapes.get(schema, operation, fragments, variables, accessOf(ctx.access, scope));
  if (!shape) return undefined;
  const roots = shape.filter((r): r is RootShape => 'field' in r);
  ctx.rawJson = true;
  const settle = (r: RootShape): Promise<Settled> | Settled => {
    try {
      return runRoot(schema, operation, fragments, ctx, variables, r).then((value) => ({ value }), (error: unknown) => ({ error }));
    } catch (error) {
      return { error };
    }
  };
  let settled: Settled[];
  try {
    // One root field (the common case) is awaited alone, without Promise.all's own promises.
    settled = roots.length === 1 ? [await settle(roots[0]!)] : await Promise.all(roots.map(settle));
  } finally {
    ctx.rawJson = false;
  }
  // No prototype: a root alias `__proto__` is an own key, as graphql-js makes it.
  const data: Record<string, unknown> = Object.create(null);
  let whole = true;
  roots.forEach((r, i) => {
    const s = settled[i]!;
    let v: unknown;
    try {
      v = 'error' in s ? undefined : completed(r, s.value);
    } catch (error) {
      // Counted as it is written or parsed: an answer over the request's budget is its field's error.
      settled[i] = { error };
    }
    if (v === undefined) whole = false;
    else data[r.key] = v;
  });
  if (!whole) {
    fastPathAnswers.inc(['general']);
    // graphql-js completes the whole operation from the answers already fetched.
    for (const [i, r] of roots.entries()) {
      const s = settled[i]!;
      // A list meant to be streamed is read whole after all: graphql-js completes values, not text.
      if ('error' in s) {
        ctx.prefetched.set(r.key, s);
        continue;
      }
      if (s.value instanceof StreamedList) {
        ctx.prefetched.set(r.key, { value: await s.value.collect() });
        continue;
      }
      try {
        ctx.prefetched.set(r.key, { value: s.value instanceof RawJson ? s.value.parse() : s.value });
      } catch (error) {
        ctx.prefetched.set(r.key, { error });
      }
    }
    ctx.streamed.length = 0;
    return null;
  }
  // Every answer is text now: the rows it was written from are let go (RowsAnswer.release).
  for (const s of settled) if ('value' in s && s.value instanceof RowsAnswer) s.value.release();
  const values = Object.values(data);
  fastPathAnswers.inc([values.some((v) => v instanceof WrittenJson) ? 'written' : values.some((v) => v instanceof RawJson) ? 'spliced' : 'completed']);
  const ordered: Record<string, unknown> = Object.create(null);
  for (const r of shape) ordered[r.key] = 'typename' in r ? r.typename : data[r.key];
  return ordered;
}
