// POST /jq-query (seed 000 "/jq-query behaviour", SPEC §1 and §8): authenticate as /query does, run
// the GraphQL request as /query does (src/pipeline/run-operation.ts: the same complete response), then the jq
// expression on that whole response; the jq result is the body. Failures are `{error: "..."}`.
import { type ArgumentsHost, Catch, Controller, type ExceptionFilter, Inject, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parse } from 'graphql';
import type { RequestContext } from '../executor/request-context.js';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import { InProcessClient } from '../pipeline/in-process.js';
import { OperationRunner } from '../pipeline/run-operation.js';
import { clientJqRefusal } from '../pipeline/safelist.js';
import { SvcContext, SvcGuard } from '../pipeline/svc.guard.js';
import { ROLE_PERMISSIONS_TAG } from '../permissions/service.js';
import { PublicError } from '../shared/errors.js';
import { LOGGER, type Logger } from '../shared/logger.js';
import { callerScope, JQ_CACHE, type JqCache, parseCacheHeaders } from './cache.js';
import type { JqContext } from './context.js';
import { JqEngine } from './engine.js';
import { JqError } from './errors.js';
import { operationVariables } from './fields.js';
import { applyJqVariable, JQ_VARIABLE } from './variables.js';

export const JQ_QUERY_PATH = '/jq-query';

interface JqQueryBody {
  jq: string;
  query: { query: string; variables?: Record<string, unknown> | null; operationName?: string | null };
}

/** An answer other than the jq result: status and `{error}` text. */
class Failure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(body: unknown): JqQueryBody {
  const b = body as Partial<JqQueryBody> | null;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw new Failure(400, 'the body must be a JSON object {jq, query: {query, variables?, operationName?}}');
  if (typeof b.jq !== 'string') throw new Failure(400, 'missing field "jq": a jq expression (string)');
  const q = b.query;
  if (!q || typeof q !== 'object' || Array.isArray(q)) throw new Failure(400, 'missing field "query": a GraphQL request {query, variables?, operationName?}');
  if (typeof q.query !== 'string' || !q.query.trim()) throw new Failure(400, 'missing field "query.query": the GraphQL text (string)');
  if (q.variables != null && (typeof q.variables !== 'object' || Array.isArray(q.variables))) throw new Failure(400, '"query.variables" must be an object');
  if (q.operationName != null && typeof q.operationName !== 'string') throw new Failure(400, '"query.operationName" must be a string');
  return b as JqQueryBody;
}

/**
 * A caller SvcGuard refuses (401, 403, 400) is answered in /jq-query's own shape, `{"error": ...}`,
 * as every other refusal of this route, not in the GraphQL shape of the app's error filter.
 */
@Catch(PublicError)
class JqRefusalFilter implements ExceptionFilter {
  catch(e: PublicError, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    void reply.status(e.status === 200 ? 400 : e.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify({ error: e.message }));
  }
}

/** Guarded like a team's route (SvcGuard): the caller's context is made before the handler. */
@Controller()
@UseGuards(SvcGuard)
@UseFilters(JqRefusalFilter)
export class JqController {
  constructor(
    @Inject(InProcessClient) private readonly client: InProcessClient,
    @Inject(OperationRunner) private readonly operations: OperationRunner,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly log: Logger,
    @Inject(JqEngine) private readonly engine: JqEngine,
    @Inject(JQ_CACHE) private readonly cache: JqCache,
  ) {}

  @Post(JQ_QUERY_PATH.slice(1))
  async post(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @SvcContext() request: RequestContext): Promise<void> {
    try {
      const { status, body } = await this.handle(req, request);
      void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
    } catch (e) {
      const { status, message } = this.failure(e);
      void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify({ error: message }));
    }
  }

  private async handle(req: FastifyRequest, request: RequestContext): Promise<{ status: number; body: string }> {
    if (!/^application\/json\b/i.test(String(req.headers['content-type'] ?? ''))) {
      // Only JSON bodies: a form or text/plain POST is how cross-site request forgery arrives.
      throw new Failure(415, 'unsupported content type: send application/json');
    }
    const refused = clientJqRefusal(this.config, JQ_QUERY_PATH);
    if (refused) throw new Failure(403, refused);
    const body = readBody(req.body);
    const { identity, timezone } = request;
    // An entry is the caller's own: role, identity and time zone are in its key (issue 14 item 11).
    const cacheRequest = parseCacheHeaders(req.headers, req.body, callerScope(identity.role, request.authVars, timezone));
    if (cacheRequest && !cacheRequest.invalidate) {
      const hit = await this.cache.get(cacheRequest.key);
      if (hit !== undefined) return { status: 200, body: hit };
    }
    const reads = request.reads;
    const context: JqContext = { identity, timezone, querySvc: this.client.querySvc(request, { reads }) };
    const variables = (await applyJqVariable(body.query.variables ?? undefined, this.engine, context)) ?? undefined;
    const { variables: _sent, ...query } = body.query;
    // The variables the programs of this request read count as used (src/pipeline/validation.ts).
    const sentJq = body.query.variables?.[JQ_VARIABLE];
    request.jqPrograms.push(body.jq, ...(typeof sentJq === 'string' ? [sentJq] : []));
    const response = await this.execute(req, request, variables ? { ...query, variables } : query);
    const result = await this.engine.run({ program: body.jq, input: response, variables: this.jqVariables(body.query.query, body.query.operationName, variables), context });
    if (cacheRequest) {
      // Tagged with every object read (by the query and by querySvc), so writes drop it, and with
      // $role_permissions, so a permission change does too (SPEC §9, like @cache on /query).
      const tags = [...new Set([...cacheRequest.tags, ...reads, ROLE_PERMISSIONS_TAG])];
      await this.cache.set(cacheRequest.key, result.text, { ttlSeconds: cacheRequest.ttlSeconds, tags });
    }
    return { status: 200, body: result.text };
  }

  /** Runs the GraphQL request as /query does; returns the response text, or fails as /query would. */
  private async execute(req: FastifyRequest, context: RequestContext, query: JqQueryBody['query']): Promise<string> {
    // The rules of /query under application/json (SPEC §1): validation errors are a 200 response
    // with `errors`, which jq receives; only a malformed request is refused.
    const { status, text } = await this.operations.run(context, { headers: req.headers, body: query, json: true });
    if (status >= 400) {
      let message = status >= 500 ? 'internal server error' : 'invalid GraphQL request';
      try {
        const first = (JSON.parse(text) as { errors?: { message?: string }[] }).errors?.[0]?.message;
        if (first && status < 500) message = first;
      } catch {
        // not JSON: keep the generic message
      }
      throw new Failure(status >= 500 ? 500 : 400, message);
    }
    return text;
  }

  /** `$name` for every variable of the request, with the operation's defaults. */
  private jqVariables(text: string, operationName: string | null | undefined, sent: Record<string, unknown> | undefined): Record<string, unknown> {
    try {
      const document = parse(text);
      const operation = document.definitions.find(
        (d) => d.kind === 'OperationDefinition' && (!operationName || d.name?.value === operationName),
      );
      return operationVariables(operation?.kind === 'OperationDefinition' ? operation : undefined, sent);
    } catch {
      return { ...(sent ?? {}) };
    }
  }

  private failure(e: unknown): { status: number; message: string } {
    if (e instanceof Failure) return { status: e.status, message: e.message };
    if (e instanceof JqError) {
      if (e.code === 'JQ_INTERNAL') this.log.error({ err: e }, 'jq engine failed');
      return { status: e.status, message: e.code === 'JQ_INTERNAL' ? 'internal server error' : e.message };
    }
    if (e instanceof PublicError) return { status: e.status === 200 ? 400 : e.status, message: e.message };
    this.log.error({ err: e }, '/jq-query failed');
    return { status: 500, message: 'internal server error' };
  }
}
