// /subscribe (SPEC §13): graphql-ws (`graphql-transport-ws`) over the server's own HTTP listener.
// The connection authenticates once with the providers of HTTP (connectionParams carry the same
// headers); each result is the inner query run through /query's path, so role rules, limits and
// time zone apply to every tick, and a role disabled or a token expired ends the subscription.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type ExecutionArgs, type ExecutionResult, GraphQLError, parse } from 'graphql';
import type { WebSocketServer } from 'ws';
import type { RawHeaders } from '../../auth/request.js';
import type { RequestContext } from '../../executor/request-context.js';
import { PublicError } from '../../shared/errors.js';
import { parseDbJson } from '../../shared/json.js';
import type { Config } from '../../config/schema.js';
import { CONFIG } from '../../config/tokens.js';
import { SchemaService } from '../../pipeline/schema.service.js';
import { RequestContextFactory } from '../../pipeline/context.factory.js';
import { OperationRunner } from '../../pipeline/run-operation.js';
import { type PeriodicQuery, periodicQuery } from './operation.js';

export const SUBSCRIBE_PATH = '/subscribe';
/** A subscription refuses identity override from callers other than the secret key (seed 000). */
const CONNECTION = { overrides: 'refuse' } as const;

/** What graphql-ws keeps per connection beside its own `socket` and `request`: the caller's headers. */
type Connection = Record<PropertyKey, unknown> & { headers?: RawHeaders };

/** connectionParams as request headers: `Authorization`, `x-svc-api-key`, `x-svc-secret-key`, ... (any case), `token` as a bearer token. */
function headersOf(params: Readonly<Record<string, unknown>> | undefined, upgrade: IncomingMessage): RawHeaders {
  const out: Record<string, string | string[] | undefined> = {};
  // The upgrade request's own credentials (a browser's cookie), then what the client put in connectionParams.
  for (const k of ['authorization', 'cookie', 'x-svc-api-key', 'x-svc-timezone', 'time-zone']) if (upgrade.headers[k] !== undefined) out[k] = upgrade.headers[k];
  for (const [k, v] of Object.entries(params ?? {})) if (typeof v === 'string') out[k.toLowerCase()] = v;
  if (typeof params?.token === 'string' && out.authorization === undefined) out.authorization = `Bearer ${params.token}`;
  return out;
}

const sleep = (ms: number, stop: AbortSignal) =>
  new Promise<void>((done) => {
    const t = setTimeout(done, ms);
    stop.addEventListener('abort', () => (clearTimeout(t), done()), { once: true });
  });

@Injectable()
export class SubscriptionServer implements OnApplicationBootstrap, OnApplicationShutdown {
  // ws and graphql-ws are imported with the first /subscribe upgrade, not at start (issue 30: ~0.9 MB
  // of heap with /ipc's ws that a server nobody subscribes to would carry). The upgraded socket is
  // not read until the server takes it, so nothing the client sends meanwhile is lost.
  private wss?: Promise<WebSocketServer>;
  private dispose?: () => void | Promise<void>;

  constructor(
    @Inject(HttpAdapterHost) private readonly host: HttpAdapterHost,
    @Inject(OperationRunner) private readonly operations: OperationRunner,
    @Inject(RequestContextFactory) readonly contexts: RequestContextFactory,
    @Inject(SchemaService) private readonly schemas: SchemaService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.host.httpAdapter.getHttpServer() as Server;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if ((req.url ?? '').split('?')[0] !== SUBSCRIBE_PATH) return;
      void (this.wss ??= this.open()).then((wss) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)));
    });
  }

  private async open(): Promise<WebSocketServer> {
    const [{ WebSocketServer }, { useServer }] = await Promise.all([import('ws'), import('graphql-ws/use/ws')]);
    const wss = new WebSocketServer({ noServer: true, maxPayload: this.config.MAX_BODY_SIZE });
    this.dispose = useServer<Record<string, unknown>, Connection>(
      {
        onConnect: async (ctx) => {
          const headers = headersOf(ctx.connectionParams, ctx.extra.request);
          try {
            await this.contexts.fromHeaders(headers, SUBSCRIBE_PATH, CONNECTION);
            ctx.extra.headers = headers;
            return true;
          } catch {
            return false;
          }
        },
        onSubscribe: (ctx, _id, payload) => {
          let document;
          try {
            document = parse(payload.query, { maxTokens: this.config.MAX_TOKENS || undefined });
          } catch (e) {
            return [e instanceof GraphQLError ? e : new GraphQLError(String(e))];
          }
          const periodic = periodicQuery(document, payload.operationName ?? undefined, payload.variables ?? {});
          if (periodic instanceof GraphQLError) return [periodic];
          // graphql-ws runs `subscribe` with these arguments; the schema is not asked (it has no Subscription type).
          return { schema: this.schemas.current.schema, document, operationName: payload.operationName ?? null, variableValues: payload.variables ?? {}, contextValue: { periodic, headers: ctx.extra.headers } } as ExecutionArgs;
        },
        subscribe: (args) => {
          const { periodic, headers } = args.contextValue as { periodic: PeriodicQuery; headers: RawHeaders };
          return this.ticks(periodic, headers, (args.variableValues ?? {}) as Record<string, unknown>);
        },
      },
      wss,
    ).dispose;
    return wss;
  }

  async onApplicationShutdown(): Promise<void> {
    const wss = await this.wss;
    await this.dispose?.();
    for (const c of wss?.clients ?? []) c.close(1001, 'server stopping');
    wss?.close();
  }

  /** One result per interval; ends after `count`, when the client leaves, or when the caller may no longer ask. */
  private async *ticks(p: PeriodicQuery, headers: RawHeaders, variables: Record<string, unknown>): AsyncGenerator<ExecutionResult> {
    const stop = new AbortController();
    try {
      for (let sent = 0; p.count === 0 || sent < p.count; sent++) {
        if (sent > 0) await sleep(p.intervalMs, stop.signal);
        let context: RequestContext;
        try {
          // Every tick asks again: an expired token, a disabled role or a revoked key ends it here.
          context = await this.contexts.fromHeaders(headers, SUBSCRIBE_PATH, CONNECTION);
        } catch (e) {
          const code = e instanceof PublicError ? e.code : 'UNAUTHENTICATED';
          yield { errors: [new GraphQLError(`subscription ended: ${(e as Error).message}`, { extensions: { code } })] };
          return;
        }
        const result = await this.run(p, context, variables);
        yield result;
        // No data at all: the query was refused as a whole (invalid, over a limit). Running it again
        // would send the same error every interval, so the subscription ends after saying it once.
        if (result.data === null) return;
      }
    } finally {
      stop.abort();
    }
  }

  private async run(p: PeriodicQuery, context: RequestContext, variables: Record<string, unknown>): Promise<ExecutionResult> {
    const body = { query: p.query, variables, ...(p.operationName ? { operationName: p.operationName } : {}) };
    const { text } = await this.operations.run(context, { body, json: true });
    const answer = parseDbJson(text) as { data?: Record<string, unknown> | null; errors?: Record<string, unknown>[] };
    // The errors as /query formatted them; graphql-ws serialises errors through their toJSON.
    const errors = answer.errors?.map((e) => ({ ...e, toJSON: () => e }) as unknown as GraphQLError);
    return { data: answer.data === undefined || answer.data === null ? null : { [p.key]: answer.data }, ...(errors?.length ? { errors } : {}) };
  }
}
