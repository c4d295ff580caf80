// /mcp (issue 28): the Model Context Protocol's Streamable HTTP transport, stateless. One more entry
// point of the request pipeline: SvcGuard (the context factory) identifies the caller as for /query (API key,
// JWT, OIDC cookie, secret key, anonymous), applies its role gate and the `_endpoints` rule of
// /mcp; then a server made for this caller answers the JSON-RPC message. Stateless as the SDK
// documents it: no session id, a server and a transport per request, JSON answers (no SSE stream),
// so any node of a cluster can answer any request.
import { Controller, Delete, Get, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import type { RequestContext } from '../executor/request-context.js';
import { SvcContext, SvcGuard } from '../pipeline/svc.guard.js';
import { LOGGER, type Logger } from '../shared/logger.js';
import { nodeVersion } from '../system/info.js';
import { RoleViews } from './role-view.js';
import { GraphqlRunner } from './runner.js';

export const MCP_PATH = '/mcp';

// The MCP SDK (the server, its transport and the tools built on them) is loaded on the first POST
// /mcp, not at start: registering the route needs none of it, and most servers are never asked.
let sdk: Promise<readonly [typeof import('./server.js'), typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]> | undefined;
const loadSdk = () => (sdk ??= Promise.all([import('./server.js'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]));

@Controller()
export class McpController {
  constructor(
    @Inject(RoleViews) private readonly views: RoleViews,
    @Inject(GraphqlRunner) private readonly runner: GraphqlRunner,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** Guarded like a team's route (SvcGuard): a refused caller is answered by the app's error filter. */
  @Post(MCP_PATH.slice(1))
  @UseGuards(SvcGuard)
  async post(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @SvcContext() caller: RequestContext): Promise<void> {
    const [{ buildServer }, { WebStandardStreamableHTTPServerTransport }] = await loadSdk();
    const server = buildServer({ runner: this.runner, config: this.config, log: this.log, version: nodeVersion().version }, this.views.of(caller), caller);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
      // Fastify has parsed the body (MAX_BODY_SIZE, JSON only); the transport takes it as it is.
      const request = new Request(`http://${req.headers.host ?? 'localhost'}${MCP_PATH}`, { method: 'POST', headers });
      const response = await transport.handleRequest(request, { parsedBody: req.body });
      void reply.status(response.status);
      response.headers.forEach((v, k) => void reply.header(k, v));
      return void reply.send(await response.text());
    } finally {
      await server.close();
    }
  }

  /** No server-initiated stream and no sessions in stateless mode: only POST (as the transport spec allows). */
  @Get(MCP_PATH.slice(1))
  get(@Res() reply: FastifyReply): void {
    this.notAllowed(reply);
  }

  @Delete(MCP_PATH.slice(1))
  delete(@Res() reply: FastifyReply): void {
    this.notAllowed(reply);
  }

  private notAllowed(reply: FastifyReply): void {
    void reply.status(405).header('allow', 'POST').header('content-type', 'application/json')
      .send(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'method not allowed: this MCP endpoint is stateless; send JSON-RPC messages with POST' }, id: null }));
  }
}
