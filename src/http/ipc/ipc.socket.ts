// The /ipc WebSocket (SPEC §13, subprotocol `svc-ipc-ws`). Client messages (JSON text):
//   {type: "connection_init", payload?: {headers...}}   optional; answered with connection_ack
//   {type: "query", id, query, variables?, operationName?}
//   {type: "subscribe", id, query, variables?, operationName?, interval?, count?}
//   {type: "cancel", id} / {type: "unsubscribe", id}
// Server messages, per answer in this order: {type: "data", id, path, format: "object", data} or
// {type: "table", id, path} + binary frames (the part's Arrow IPC stream) + {type: "table_end", id, path};
// then {type: "extensions", id, data}, {type: "errors", id, errors} when any, and {type: "complete", id}
// (a subscription completes after its last run). A refusal is {type: "error", id, errors}.
// Answers are written one at a time per connection, so binary frames always belong to the last "table".
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { WebSocket, WebSocketServer } from 'ws';
import type { RequestContext } from '../../executor/request-context.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { Serial } from '../../shared/mutex.js';
import type { Config } from '../../config/schema.js';
import { CONFIG } from '../../config/tokens.js';
import { SchemaService } from '../../pipeline/schema.service.js';
import { LOGGER, type Logger } from '../../shared/logger.js';
import { RequestContextFactory } from '../../pipeline/context.factory.js';
import { MIN_INTERVAL_MS } from '../subscribe/operation.js';
import { parseDurationMs } from '../../shared/duration.js';
import { OperationRunner } from '../../pipeline/run-operation.js';
import { writeAnswer } from './answer.js';
import type { PartSink } from './multipart.js';
import { runIpc } from './runner.js';

export const IPC_SUBPROTOCOL = 'svc-ipc-ws';

interface ClientMessage {
  readonly type?: string;
  readonly id?: string;
  readonly payload?: Record<string, unknown>;
  readonly query?: string;
  readonly variables?: Record<string, unknown>;
  readonly operationName?: string;
  readonly interval?: string | number;
  readonly count?: number;
}

/** One answer's messages on the socket; `closed` once the client cancelled it or went away. */
class SocketSink implements PartSink {
  constructor(
    private readonly ws: WebSocket,
    private readonly id: string,
    private readonly stop: AbortSignal,
  ) {}

  get closed(): boolean {
    return this.stop.aborted || this.ws.readyState !== this.ws.OPEN;
  }

  send(message: Record<string, unknown> | Uint8Array): Promise<void> {
    if (this.closed) return Promise.resolve();
    const data = message instanceof Uint8Array ? message : JSON.stringify({ ...message, id: this.id });
    // The callback fires once the frame is handed to the socket: the next chunk waits for it.
    return new Promise((done) => this.ws.send(data, { binary: message instanceof Uint8Array }, () => done()));
  }

  object(path: string, json: string): Promise<void> {
    return this.send({ type: 'data', path, format: 'object', data: JSON.parse(json) });
  }
  table(path: string): Promise<void> {
    return this.send({ type: 'table', path, format: 'table' });
  }
  write(chunk: Uint8Array): Promise<void> {
    return this.send(chunk);
  }
  endTable(path: string): Promise<void> {
    return this.send({ type: 'table_end', path });
  }
  extensions(json: string): Promise<void> {
    return this.send({ type: 'extensions', data: JSON.parse(json) });
  }
  errors(json: string): Promise<void> {
    return this.send({ type: 'errors', errors: JSON.parse(json) });
  }
  close(): void {}
}

const refusal = (e: unknown) =>
  e instanceof PublicError ? [{ message: e.message, extensions: { code: e.code } }] : [{ message: 'internal server error', extensions: { code: ErrorCode.Internal } }];

class IpcSession {
  private headers: Record<string, string | string[] | undefined>;
  /** One answer at a time on the socket. */
  private readonly serial = new Serial();
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly ws: WebSocket,
    request: IncomingMessage,
    private readonly server: IpcSocketServer,
  ) {
    this.headers = { ...request.headers };
    ws.on('message', (raw, binary) => void this.receive(binary ? undefined : raw.toString()));
    ws.on('close', () => {
      for (const c of this.running.values()) c.abort();
    });
  }

  private send(message: Record<string, unknown>): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(message));
  }

  private async receive(text: string | undefined): Promise<void> {
    let m: ClientMessage;
    try {
      m = JSON.parse(text ?? '') as ClientMessage;
    } catch {
      return this.send({ type: 'error', errors: [{ message: 'messages are JSON text', extensions: { code: ErrorCode.BadRequest } }] });
    }
    const id = typeof m.id === 'string' ? m.id : undefined;
    switch (m.type) {
      case 'connection_init':
        for (const [k, v] of Object.entries(m.payload ?? {})) if (typeof v === 'string') this.headers[k.toLowerCase()] = v;
        try {
          await this.server.contexts.fromHeaders(this.headers, '/ipc', { overrides: 'refuse' });
          return this.send({ type: 'connection_ack' });
        } catch (e) {
          return this.ws.close(4403, e instanceof PublicError ? e.message.slice(0, 120) : 'forbidden');
        }
      case 'query':
      case 'subscribe': {
        if (!id || this.running.has(id)) return this.send({ type: 'error', id, errors: [{ message: 'a query needs an id not in use', extensions: { code: ErrorCode.BadRequest } }] });
        const stop = new AbortController();
        this.running.set(id, stop);
        try {
          await (m.type === 'query' ? this.answer(id, m, stop.signal) : this.periodic(id, m, stop.signal));
        } finally {
          this.running.delete(id);
        }
        return;
      }
      case 'cancel':
      case 'unsubscribe':
        if (id) this.running.get(id)?.abort();
        return;
      default:
        return this.send({ type: 'error', id, errors: [{ message: `unknown message type "${String(m.type)}"`, extensions: { code: ErrorCode.BadRequest } }] });
    }
  }

  /** Runs one operation and writes its answer; false when it was refused or ended the subscription. */
  private run(id: string, m: ClientMessage, stop: AbortSignal): Promise<boolean> {
    return this.serial.run(async () => {
      if (stop.aborted) return false;
      let context: RequestContext;
      try {
        context = await this.server.contexts.fromHeaders(this.headers, '/ipc', { overrides: 'refuse' });
      } catch (e) {
        this.send({ type: 'error', id, errors: refusal(e) });
        return false;
      }
      const body = { query: m.query, ...(m.variables ? { variables: m.variables } : {}), ...(m.operationName ? { operationName: m.operationName } : {}) };
      const outcome = await runIpc(this.server, context, body);
      if (outcome.kind === 'json') {
        this.send({ type: 'error', id, errors: (JSON.parse(outcome.text) as { errors?: unknown[] }).errors ?? [] });
        return false;
      }
      await writeAnswer(new SocketSink(this.ws, id, stop), outcome.answer, outcome.parts, outcome.streams, outcome.fragments, this.server.log);
      return !stop.aborted;
    });
  }

  private async answer(id: string, m: ClientMessage, stop: AbortSignal): Promise<void> {
    if (await this.run(id, m, stop)) this.send({ type: 'complete', id });
  }

  private async periodic(id: string, m: ClientMessage, stop: AbortSignal): Promise<void> {
    const intervalMs = m.interval === undefined ? 10_000 : typeof m.interval === 'number' ? m.interval * 1000 : parseDurationMs(String(m.interval));
    const count = m.count ?? 0;
    if (intervalMs === undefined || intervalMs < MIN_INTERVAL_MS || !Number.isInteger(count) || count < 0) {
      return this.send({ type: 'error', id, errors: [{ message: `interval must be a duration of at least ${MIN_INTERVAL_MS / 1000}s, count a whole number`, extensions: { code: ErrorCode.BadUserInput } }] });
    }
    for (let sent = 0; count === 0 || sent < count; sent++) {
      if (sent > 0) await new Promise<void>((done) => {
        const t = setTimeout(done, intervalMs);
        stop.addEventListener('abort', () => (clearTimeout(t), done()), { once: true });
      });
      if (stop.aborted || !(await this.run(id, m, stop))) return;
    }
    this.send({ type: 'complete', id });
  }
}

@Injectable()
export class IpcSocketServer implements OnApplicationBootstrap, OnApplicationShutdown {
  // ws is imported with the first /ipc upgrade, not at start (issue 30), as /subscribe's.
  private wss?: Promise<WebSocketServer>;

  constructor(
    @Inject(HttpAdapterHost) private readonly host: HttpAdapterHost,
    @Inject(OperationRunner) readonly operations: OperationRunner,
    @Inject(RequestContextFactory) readonly contexts: RequestContextFactory,
    @Inject(SchemaService) readonly schemas: SchemaService,
    @Inject(LOGGER) readonly log: Logger,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  onApplicationBootstrap(): void {
    (this.host.httpAdapter.getHttpServer() as Server).on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if ((req.url ?? '').split('?')[0] !== '/ipc') return;
      void (this.wss ??= this.open()).then((wss) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)));
    });
  }

  private async open(): Promise<WebSocketServer> {
    const { WebSocketServer } = await import('ws');
    const wss = new WebSocketServer({
      noServer: true,
      maxPayload: this.config.MAX_BODY_SIZE,
      handleProtocols: (protocols) => (protocols.has(IPC_SUBPROTOCOL) ? IPC_SUBPROTOCOL : false),
    });
    wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
      // Only clients speaking the protocol: anything else is closed at once (1002 protocol error).
      if (ws.protocol !== IPC_SUBPROTOCOL) return ws.close(1002, `subprotocol ${IPC_SUBPROTOCOL} required`);
      new IpcSession(ws, req, this);
    });
    return wss;
  }

  async onApplicationShutdown(): Promise<void> {
    const wss = await this.wss;
    for (const c of wss?.clients ?? []) c.close(1001, 'server stopping');
    wss?.close();
  }
}
