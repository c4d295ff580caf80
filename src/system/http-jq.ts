// jq for http sources in hugr's form (`http_data_source_request_scalar(..., 'jq')` and the token
// transforms of OAuth2 flows): the engine of SPEC §8 with JQ_TIMEOUT / JQ_MAX_MEMORY / JQ_WORKERS,
// created on first use (most deployments have no such source) and closed with the application.
import type { Config } from '../config/schema.js';
import { JqEngine, jqOptions } from '../jq/engine.js';
import { JqError } from '../jq/errors.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { JqRunner } from '../sources/http/request.js';

export class HttpJq {
  private engine?: JqEngine;

  constructor(private readonly config: Config) {}

  /** No caller identity or querySvc: the program sees the answer (and the given variables) only. */
  readonly run: JqRunner = async (program, input, variables) => {
    this.engine ??= new JqEngine(jqOptions(this.config));
    try {
      const r = await this.engine.run({ program, input, ...(variables ? { variables } : {}), context: { identity: null, timezone: 'UTC' } });
      return r.outputs;
    } catch (e) {
      if (e instanceof JqError) throw new PublicError(ErrorCode.QueryFailed, `the jq program of an http request failed: ${e.message}`);
      throw e;
    }
  };

  async onApplicationShutdown(): Promise<void> {
    await this.engine?.close();
  }
}
