// One /ipc operation, shared by POST /ipc and the /ipc WebSocket: the operation runs as /query's
// (src/pipeline/run-operation.ts) with root lists registered for streaming; what comes back is either
// /query's JSON answer (refused before execution) or the parts to write.
import { parse } from 'graphql';
import type { RequestContext, RowStream } from '../../executor/request-context.js';
import { parseDbJson } from '../../shared/json.js';
import type { SchemaService } from '../../pipeline/schema.service.js';
import type { OperationRunner } from '../../pipeline/run-operation.js';
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

/** What /ipc runs an operation with, and the served schema its parts are cut from. */
export interface IpcDeps {
  readonly operations: OperationRunner;
  readonly schemas: SchemaService;
}

export async function runIpc(deps: IpcDeps, context: RequestContext, body: IpcRequest, headers?: Readonly<Record<string, string | readonly string[] | undefined>>): Promise<IpcOutcome> {
  context.streams = new Map<string, RowStream>();
  // /ipc answers in its own media type; the operation is asked for plain JSON.
  const { status, text, refusedEarly } = await deps.operations.run(context, { ...(headers ? { headers } : {}), body, json: true });
  if (refusedEarly) return { kind: 'json', status, text };
  const answer = parseDbJson(text) as GraphqlAnswer;
  const document = status === 200 && answer.data ? safeParse(typeof body.query === 'string' ? body.query : '') : undefined;
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
