// The MCP server one caller talks to: its tools, resource and prompts, every one of them acting as
// that caller (stateless: made for each HTTP request, after the context factory identified it).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Config } from '../config/schema.js';
import type { RequestContext } from '../executor/request-context.js';
import { PublicError } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import { withinBudget } from './budget.js';
import { describe } from './describe.js';
import { fieldValues } from './field-values.js';
import { ANALYSIS_PROMPT, DISCOVERY_PROMPT, guide } from './guide.js';
import type { EntryKind, RoleView } from './role-view.js';
import { type GraphqlRunner, ToolFailure } from './runner.js';
import { similaritySearch, textSearch } from './search.js';

export const GUIDE_URI = 'svc://guide';

export interface McpDeps {
  readonly runner: GraphqlRunner;
  readonly config: Config;
  readonly log: Logger;
  readonly version: string;
}

const KINDS = ['module', 'object', 'function', 'field'] as const;

const json = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2);
const text = (t: string) => ({ type: 'text' as const, text: t });

/** The tool's answer, or its failure as a tool error (the agent reads it and tries again). */
async function answer(log: Logger, tool: string, fn: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ToolFailure || e instanceof PublicError) return { isError: true, content: [text(e.message)] };
    log.error({ err: e, tool }, 'mcp tool failed');
    return { isError: true, content: [text('internal server error')] };
  }
}

const INSTRUCTIONS = `svc serves data sources as one GraphQL API. You act as the caller who connected, with that role's rights: what you cannot see does not exist for you.
Work in this order: search (find objects by meaning) -> describe (fields, relations, filters, aggregations, an example query) -> field_values (real values of a field) -> validate -> query (with an optional jq program). Prefer aggregations (X_aggregation, X_bucket_aggregation) over reading many rows; answers are cut to a budget and a note says so. The resource ${GUIDE_URI} is a one-page guide to the query language.`;

export function buildServer(deps: McpDeps, view: RoleView, caller: RequestContext): McpServer {
  const { runner, config, log } = deps;
  const server = new McpServer({ name: 'svc', version: deps.version }, { instructions: INSTRUCTIONS });
  const maxRows = config.MCP_MAX_ROWS;
  const maxBytes = config.MCP_MAX_BYTES;

  server.registerTool('search', {
    title: 'Find data by meaning',
    description: 'Find data objects (tables, views), their fields, functions and modules that match a few words, e.g. "customer orders" or "revenue per country". Returns names, kinds, short descriptions and what to call next. Start here when you do not know the names.',
    inputSchema: {
      query: z.string().min(1).describe('A few words about the data you want'),
      kinds: z.array(z.enum(KINDS)).optional().describe('Only these kinds (default: all)'),
      limit: z.number().int().min(1).max(50).default(10).describe('Results at most'),
    },
    annotations: { readOnlyHint: true },
  }, (args) => answer(log, 'search', async () => {
    const kinds: readonly EntryKind[] = args.kinds?.length ? args.kinds : KINDS;
    const similar = config.EMBEDDER_URL ? await similaritySearch(view, runner, caller, args.query, kinds, args.limit) : undefined;
    const hits = similar ?? textSearch(view, args.query, kinds, args.limit);
    const how = similar ? 'ranked by similarity of meaning (embeddings)' : 'ranked by matching words in names and descriptions';
    if (!hits.length) return { content: [text(`nothing matched; try other words, or describe a module (top modules: ${view.entries.filter((e) => e.kind === 'module' && !e.name.includes('.')).map((e) => e.name).join(', ') || 'none'})`)] };
    return { content: [text(json({ ranking: how, results: hits }))] };
  }));

  server.registerTool('describe', {
    title: 'Describe an object, function or module',
    description: 'Everything needed to query one data object, function or module: fields with types and descriptions, relations to other objects, arguments, filter operators, aggregations, and an example query that runs as is. Name it as search returned it.',
    inputSchema: { name: z.string().min(1).describe('Object, function or module name, as search returned it') },
    annotations: { readOnlyHint: true },
  }, (args) => answer(log, 'describe', async () => {
    const entry = view.find(args.name);
    if (!entry) {
      const like = view.suggest(args.name);
      throw new ToolFailure(`no object, function or module "${args.name}"; use search to find names${like.length ? ` (did you mean ${like.map((n) => `"${n}"`).join(', ')}?)` : ''}`, 'name');
    }
    return { content: [text(json(describe(view, entry)))] };
  }));

  server.registerTool('field_values', {
    title: 'Values of a field',
    description: 'What one field of a data object holds, without reading rows: for numbers, dates and times the row count, count, distinct count, min, max (and avg); for other fields the most frequent values with their counts. Use it to learn real values before filtering or grouping (country codes, statuses, date ranges).',
    inputSchema: {
      object: z.string().min(1).describe('Data object name, as search or describe gave it'),
      field: z.string().min(1).describe('One of its fields, e.g. a status, a country or a date'),
      filter: z.record(z.string(), z.unknown()).optional().describe('Only rows matching this filter (the object\'s filter, e.g. {"country": {"eq": "GB"}})'),
      limit: z.number().int().min(1).max(100).default(20).describe('Distinct values at most'),
    },
    annotations: { readOnlyHint: true },
  }, (args) => answer(log, 'field_values', async () => ({ content: [text(json(await fieldValues(view, runner, caller, args)))] })));

  const runTool = (kind: 'query' | 'mutation') => (args: { query: string; variables?: Record<string, unknown>; jq?: string; operation_name?: string; max_rows?: number }) =>
    answer(log, kind, async () => {
      const { value, errors } = await runner.run(view, caller, { query: args.query, ...(args.variables ? { variables: args.variables } : {}), ...(args.jq !== undefined ? { jq: args.jq } : {}), ...(args.operation_name ? { operationName: args.operation_name } : {}) }, kind);
      const budget = withinBudget(value, Math.min(args.max_rows ?? maxRows, maxRows), maxBytes);
      return { content: [text(budget.text), ...(budget.note ? [text(`note: ${budget.note}`)] : []), ...(errors.length ? [text(`errors (the rest of the answer stands):\n${errors.join('\n')}`)] : [])] };
    });

  server.registerTool('query', {
    title: 'Run a GraphQL query',
    description: `Run a GraphQL query as the connected caller and get its data as JSON. Optional variables, and an optional jq program applied to the whole response {data, extensions} (e.g. ".data.customers | map(.name)"). The answer is cut to ${maxRows} rows per list and ${maxBytes} bytes, with a note when cut: prefer filters, limits and aggregations. Queries only; check a query first with validate when unsure.`,
    inputSchema: {
      query: z.string().min(1).describe('GraphQL query text'),
      variables: z.record(z.string(), z.unknown()).optional().describe('Values of the query\'s $variables'),
      jq: z.string().optional().describe('jq program applied to the response {data, extensions}'),
      operation_name: z.string().optional().describe('Which operation to run when the text has several'),
      max_rows: z.number().int().min(1).max(maxRows).optional().describe(`Rows per list in the answer (at most ${maxRows})`),
    },
    annotations: { readOnlyHint: true },
  }, runTool('query'));

  if (config.MCP_ALLOW_MUTATIONS && view.canWrite) {
    server.registerTool('mutate', {
      title: 'Run a GraphQL mutation',
      description: 'Insert, update or delete data, or call a mutation function, as the connected caller: one GraphQL mutation, all of it written or none. Describe the object first; ask the user before changing data.',
      inputSchema: {
        query: z.string().min(1).describe('GraphQL mutation text (mutation { ... })'),
        variables: z.record(z.string(), z.unknown()).optional().describe('Values of the mutation\'s $variables'),
        operation_name: z.string().optional().describe('Which operation to run when the text has several'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true },
    }, runTool('mutation'));
  }

  server.registerTool('validate', {
    title: 'Check a query without running it',
    description: 'Check a GraphQL query or mutation against what you may use, without running it: the errors with their line and column, and the names it would accept instead ("Did you mean ...").',
    inputSchema: {
      query: z.string().min(1).describe('GraphQL text'),
      variables: z.record(z.string(), z.unknown()).optional().describe('Values of its $variables'),
      operation_name: z.string().optional().describe('Which operation to check when the text has several'),
    },
    annotations: { readOnlyHint: true },
  }, (args) => answer(log, 'validate', async () => {
    const problems = runner.check(view, { query: args.query, ...(args.variables ? { variables: args.variables } : {}), ...(args.operation_name ? { operationName: args.operation_name } : {}) }, caller);
    return problems.length ? { isError: true, content: [text(`query: ${problems.join('\n')}`)] } : { content: [text('valid')] };
  }));

  server.registerResource('guide', GUIDE_URI, {
    title: 'svc query language guide',
    description: 'Filters, relations, aggregations, buckets and jq, with examples built from the schema you may use',
    mimeType: 'text/markdown',
  }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: guide(view) }] }));

  server.registerPrompt('discover', {
    title: 'Discover data',
    description: 'Find which objects and fields hold the data about a topic',
    argsSchema: { topic: z.string().describe('What data you are looking for') },
  }, ({ topic }) => ({ messages: [{ role: 'user', content: text(DISCOVERY_PROMPT(topic)) }] }));

  server.registerPrompt('analyze', {
    title: 'Answer a question with data',
    description: 'Find the data, write one aggregating query, run it and answer with figures',
    argsSchema: { question: z.string().describe('The question to answer') },
  }, ({ question }) => ({ messages: [{ role: 'user', content: text(ANALYSIS_PROMPT(question)) }] }));

  return server;
}
