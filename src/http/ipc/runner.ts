// One /ipc operation, shared by POST /ipc and the /ipc WebSocket: the operation runs through Apollo
// (the /query path) with root lists registered for streaming; what comes back is either /query's
// JSON answer (refused before execution) or the parts to write.
import type { ApolloServer } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import { parse } from 'graphql';
import { type RowStream, RequestContext } from '../../executor/request-context.js';
import { parseDbJson } from '../../shared/json.js';
import type { SchemaService } from '../../pipeline/schema.service.js';
import { refusalBody, type RequestLimits, requestParts } from '../../pipeline/limits/cost-limit.js';
import type { GraphqlAnswer } from './answer.js';
import type { Fragments } from './arrow.js';
import { fragmentsOf, operationOf, type ResultPart, resultParts } from './parts.js';

export interface IpcRequest {
  readonly query?: unknown;
  readonly variables?: unknown;
  readonly operationName?: unknown;
}

export type IpcOutcome =
  | { readonly kind: 'json'; readonly status: number; readonly text: string }
  | { readonly kind: 'parts'; readonly answer: GraphqlAnswer; readonly parts: readonly ResultPart[]; readonly fragments: Fragments; readonly streams: ReadonlyMap<string, RowStream> };

/** What /ipc reads besides Apollo: the request limits of /query and the served schema. */
export interface IpcDeps {
  readonly limits: RequestLimits;
  readonly schemas: SchemaService;
}

export async function runIpc(apollo: ApolloServer<RequestContext>, deps: IpcDeps, context: RequestContext, body: IpcRequest, headers: HeaderMap = new HeaderMap()): Promise<IpcOutcome> {
  context.streams = new Map<string, RowStream>();
  const given = requestParts('POST', body, '');
  const refused = deps.limits.before?.(given.query, given.variables, context.identity, given.variablesText);
  if (refused) return { kind: 'json', status: 200, text: refusalBody(refused) };
  headers.set('content-type', 'application/json');
  // /ipc answers in its own media type; Apollo is asked for plain JSON.
  headers.set('accept', 'application/json');
  const response = await apollo.executeHTTPGraphQLRequest({ httpGraphQLRequest: { method: 'POST', headers, search: '', body }, context: async () => context });
  let text = '';
  if (response.body.kind === 'complete') text = response.body.string;
  else for await (const chunk of response.body.asyncIterator) text += chunk;
  const status = response.status ?? 200;
  const answer = parseDbJson(text) as GraphqlAnswer;
  const document = status === 200 && answer.data ? safeParse(String(given.query ?? '')) : undefined;
  const operation = document && operationOf(document, typeof body.operationName === 'string' ? body.operationName : undefined);
  // Refused before execution (syntax, validation, authorisation): /query's JSON answer.
  if (!document || !operation) return { kind: 'json', status, text };
  const served = deps.schemas.current;
  const fragments = fragmentsOf(document);
  return { kind: 'parts', answer, parts: resultParts(served.schema, operation, fragments, served.index.modules), fragments, streams: context.streams };
}

function safeParse(query: string): ReturnType<typeof parse> | undefined {
  try {
    return parse(query);
  } catch {
    return undefined;
  }
}
