// The built-in `jq(query: String!, include_origin: Boolean = false): Query` field (seed 000 "Built-in
// jq query"). The field resolves to `{}` and its selection runs as ordinary Query fields; once the
// operation has run, this pass (called from Apollo's willSendResponse) evaluates each jq field on
// the `data` of its selection and moves the result to `extensions.jq.<alias or "jq">`.
// Nested jq fields run first: an inner field's result is the outer expression's input under the
// inner field's name, so transformations chain.
import {
  type DocumentNode, type FieldNode, type FragmentDefinitionNode, Kind, type OperationDefinitionNode, type SelectionSetNode,
  getOperationAST, valueFromASTUntyped,
} from 'graphql';
import { mentionsJq } from '../pipeline/jq-field.js';
import { extensionNode, goDuration, hasStats } from '../pipeline/stages/stats-tree.js';
import type { JqContext } from './context.js';
import type { JqEngine } from './engine.js';
import { JqError } from './errors.js';

export const JQ_FIELD = 'jq';

/** The parts of a GraphQL result this pass reads and rewrites (Apollo's singleResult fits). */
export interface JqFieldsResult {
  data?: Record<string, unknown> | null;
  errors?: ReadonlyArray<unknown>;
  extensions?: Record<string, unknown>;
}

export interface ApplyJqFieldsArgs {
  /** Rewritten in place: data.<key> nulled (or kept), extensions.jq filled, errors appended. */
  readonly result: JqFieldsResult;
  readonly document: DocumentNode;
  readonly operationName?: string | null;
  /** The request's variable values, as sent (JSON types). */
  readonly variables?: Readonly<Record<string, unknown>> | null;
  readonly engine: JqEngine;
  readonly context: JqContext;
  /** performance.now() when the request began (`@stats` on a jq field: data_request_time). */
  readonly requestStarted?: number;
}

interface JqField {
  readonly key: string;
  readonly node: FieldNode;
}

interface Walk {
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly variables: Record<string, unknown>;
  readonly engine: JqEngine;
  readonly context: JqContext;
  readonly errors: unknown[];
}

/** Variables as jq sees them: the values sent, plus defaults of the operation's definitions. */
export function operationVariables(operation: OperationDefinitionNode | null | undefined, sent: Readonly<Record<string, unknown>> | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of operation?.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    out[name] = def.defaultValue ? valueFromASTUntyped(def.defaultValue) : null;
  }
  return { ...out, ...(sent ?? {}) };
}

export async function applyJqFields(args: ApplyJqFieldsArgs): Promise<void> {
  const { result, document } = args;
  if (!result.data || !mentionsJq(document)) return;
  const operation = getOperationAST(document, args.operationName ?? undefined);
  if (!operation || operation.operation !== 'query') return;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const walk: Walk = { fragments, variables: operationVariables(operation, args.variables), engine: args.engine, context: args.context, errors: [] };
  const data = result.data;
  // A field left out by @skip/@include is not in data and gets no result.
  const fields = jqFieldsOf(operation.selectionSet, walk).filter((f) => f.key in data);
  if (!fields.length) return;
  const started = performance.now();
  const timings = fields.map(() => new JqTiming());
  const outputs = await Promise.all(fields.map((f, i) => evaluate(f, data, [f.key], walk, timings[i])));
  const jq: Record<string, unknown> = { ...((result.extensions?.jq as Record<string, unknown> | undefined) ?? {}) };
  fields.forEach((f, i) => (jq[f.key] = outputs[i]));
  const extensions: Record<string, unknown> = { ...(result.extensions ?? {}), jq };
  // Beside `@stats` figures, hugr's extensions page places a result in the field's own node
  // (extensions.<alias>.jq, docs/stats.md) as well; without them only seed 000's place (the same
  // place for an unaliased field).
  const operationStats = hasStats(operation);
  fields.forEach((f, i) => {
    if (!operationStats && !hasStats(f.node) && !(f.key in (result.extensions ?? {}))) return;
    const node = extensionNode(extensions, [f.key], operationStats);
    node.jq = outputs[i];
    if (hasStats(f.node)) node.stats = timings[i]!.stats(args.requestStarted === undefined ? 0 : Math.round((started - args.requestStarted) * 1e6));
  });
  // The operation's total_time covers the transformations too (they run after the rest of the answer).
  const total = extensions.stats as { total_time?: string } | undefined;
  if (operationStats && total?.total_time !== undefined && args.requestStarted !== undefined) {
    extensions.stats = { ...total, total_time: goDuration(Math.round((performance.now() - args.requestStarted) * 1e6)) };
  }
  result.extensions = extensions;
  if (walk.errors.length) result.errors = [...(result.errors ?? []), ...walk.errors];
}

/** Runs the jq field `f` of `parent` (inner jq fields first); returns its result, rewrites `parent`. */
async function evaluate(f: JqField, parent: Record<string, unknown>, path: string[], walk: Walk, timing?: JqTiming): Promise<unknown> {
  const began = performance.now();
  try {
    return await evaluateTimed(f, parent, path, walk, timing);
  } finally {
    if (timing) timing.node = Math.round((performance.now() - began) * 1e6);
  }
}

async function evaluateTimed(f: JqField, parent: Record<string, unknown>, path: string[], walk: Walk, timing?: JqTiming): Promise<unknown> {
  const original = parent[f.key];
  const args = fieldArgs(f.node, walk.variables);
  let input: unknown = original;
  if (original && typeof original === 'object' && !Array.isArray(original) && f.node.selectionSet) {
    const selection = original as Record<string, unknown>;
    const inner = jqFieldsOf(f.node.selectionSet, walk).filter((g) => g.key in selection);
    if (inner.length) {
      // The input sees the inner results; data keeps what include_origin of the inner field says.
      const view = { ...selection };
      const results = await Promise.all(inner.map((g) => evaluate(g, selection, [...path, g.key], walk)));
      inner.forEach((g, i) => (view[g.key] = results[i]));
      input = view;
    }
  }
  parent[f.key] = args.includeOrigin ? original : null;
  if (typeof args.query !== 'string') {
    walk.errors.push(jqError(path, 'the argument "query" of jq must be a string', 'JQ_INVALID'));
    return null;
  }
  try {
    let t = performance.now();
    const text = JSON.stringify(input ?? null);
    timing?.add('serialization', t);
    t = performance.now();
    const out = await walk.engine.run({ program: args.query, input: text, variables: walk.variables, context: walk.context });
    timing?.add('execution', t);
    t = performance.now();
    const value = out.value();
    timing?.add('serialization', t);
    if (timing) timing.runs = 1;
    return value;
  } catch (e) {
    if (!(e instanceof JqError)) throw e;
    walk.errors.push(jqError(path, e.message, e.code));
    return null;
  }
}

/**
 * A jq field's `@stats`, in hugr's members. jq compiles its program inside the worker that runs it
 * (src/jq/pool.ts), so compiling is part of execution_time and compiler_time is 0s (docs/stats.md).
 */
class JqTiming {
  node = 0;
  execution = 0;
  serialization = 0;
  runs = 0;

  add(part: 'execution' | 'serialization', since: number): void {
    this[part] += Math.round((performance.now() - since) * 1e6);
  }

  stats(dataRequest: number): Record<string, unknown> {
    return {
      compiler_time: goDuration(0),
      data_request_time: goDuration(dataRequest),
      execution_time: goDuration(this.execution),
      node_time: goDuration(dataRequest + this.node),
      runs: this.runs,
      serialization_time: goDuration(this.serialization),
      transformed: this.runs,
    };
  }
}

function jqError(path: string[], message: string, code: string): unknown {
  return { message, path, extensions: { code } };
}

function fieldArgs(node: FieldNode, variables: Record<string, unknown>): { query: unknown; includeOrigin: boolean } {
  let query: unknown;
  let includeOrigin = false;
  for (const a of node.arguments ?? []) {
    const value = valueFromASTUntyped(a.value, variables);
    if (a.name.value === 'query') query = value;
    if (a.name.value === 'include_origin') includeOrigin = value === true;
  }
  return { query, includeOrigin };
}

/** The jq fields of a Query-typed selection set, through fragments, one per response key. */
function jqFieldsOf(set: SelectionSetNode, walk: Walk, seen = new Set<string>(), out: JqField[] = []): JqField[] {
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      const key = s.alias?.value ?? s.name.value;
      if (s.name.value === JQ_FIELD && !seen.has(key)) {
        seen.add(key);
        out.push({ key, node: s });
      }
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      jqFieldsOf(s.selectionSet, walk, seen, out);
    } else {
      const fragment = walk.fragments.get(s.name.value);
      if (fragment) jqFieldsOf(fragment.selectionSet, walk, seen, out);
    }
  }
  return out;
}
