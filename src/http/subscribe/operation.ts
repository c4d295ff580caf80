// `subscription { query(interval: "10s", count: 0) { ...any query... } }` (SPEC §13): the inner
// selection becomes an ordinary query document, run again every interval through the /query path.
import {
  type DocumentNode, type FieldNode, GraphQLError, Kind, type OperationDefinitionNode, getOperationAST, print, valueFromASTUntyped,
} from 'graphql';
import { parseDurationMs } from '../../shared/duration.js';

/** Shortest interval accepted: a subscription must not turn into a busy loop against the database. */
export const MIN_INTERVAL_MS = 1000;

export interface PeriodicQuery {
  /** The response key of the `query` field (its alias, if any). */
  readonly key: string;
  /** The inner selection as a query document, with the variables it uses. */
  readonly query: string;
  readonly operationName: string | undefined;
  readonly intervalMs: number;
  /** Results to send; 0: until the client unsubscribes (1 when there is no interval). */
  readonly count: number;
}

const refuse = (message: string, nodes?: FieldNode) => new GraphQLError(message, { ...(nodes ? { nodes } : {}), extensions: { code: 'BAD_USER_INPUT' } });

export function periodicQuery(document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>): PeriodicQuery | GraphQLError {
  const op = getOperationAST(document, operationName);
  if (!op) return refuse('unable to identify the operation (name it with operationName)');
  if (op.operation !== 'subscription') return refuse(`/subscribe runs subscriptions; send ${op.operation}s to /query`);
  const fields = op.selectionSet.selections;
  const field = fields[0];
  if (fields.length !== 1 || field?.kind !== Kind.FIELD || field.name.value !== 'query' || !field.selectionSet) {
    return refuse('a subscription has one field: query(interval: "10s", count: 0) { ...the query to re-run... } (svc serves no native subscriptions such as core.models or core.store)');
  }
  const arg = (name: string) => {
    const a = field.arguments?.find((x) => x.name.value === name);
    return a ? valueFromASTUntyped(a.value, variables) : undefined;
  };
  for (const a of field.arguments ?? []) if (a.name.value !== 'interval' && a.name.value !== 'count') return refuse(`unknown argument "${a.name.value}" of query: interval and count`, field);
  const rawInterval = arg('interval');
  const intervalMs = rawInterval === undefined || rawInterval === null ? 0 : typeof rawInterval === 'number' ? rawInterval * 1000 : parseDurationMs(String(rawInterval));
  if (intervalMs === undefined || !Number.isFinite(intervalMs)) return refuse(`interval "${String(rawInterval)}" is not a duration such as "10s" or "1m"`, field);
  if (intervalMs !== 0 && intervalMs < MIN_INTERVAL_MS) return refuse(`interval must be at least ${MIN_INTERVAL_MS / 1000}s (or 0: once)`, field);
  const count = arg('count') ?? 0;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) return refuse('count must be a whole number (0: until unsubscribed)', field);
  const fragments = document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  const used = print({ kind: Kind.DOCUMENT, definitions: [{ kind: Kind.OPERATION_DEFINITION, operation: 'query' as never, selectionSet: field.selectionSet }, ...fragments] } as DocumentNode);
  // The variables of `interval` and `count` are not the inner query's: graphql-js refuses unused ones.
  const definitions = (op.variableDefinitions ?? []).filter((v) => new RegExp(`\\$${v.variable.name.value}\\b`).test(used));
  const inner: OperationDefinitionNode = { ...op, operation: 'query' as never, variableDefinitions: definitions, selectionSet: field.selectionSet };
  return {
    key: field.alias?.value ?? 'query',
    query: print({ kind: Kind.DOCUMENT, definitions: [inner, ...fragments] }),
    operationName: op.name?.value,
    intervalMs,
    // No interval (left out or 0): one run, then complete, as hugr's subscriptions page says.
    count: intervalMs === 0 ? 1 : count,
  };
}
