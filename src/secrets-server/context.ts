import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SecretsConfig } from './config.js';
import type { Delegations } from './delegation.js';
import type { TokenExchanger } from './exchange.js';
import { findActor, isAdmin, type Caller } from './policy.js';
import type { Identity } from './principals.js';
import { problem } from './problem.js';
import type { Minter } from './serve.js';
import type { SecretStore } from './store.js';
import type { TokenVerifier } from './tokens.js';

/** Everything a route needs, built once per server. */
export interface App {
  config: SecretsConfig;
  store: SecretStore;
  verifier: TokenVerifier;
  exchanger: TokenExchanger;
  minter: Minter;
  delegations: Delegations;
  now: () => number;
  /** an operational message (never a secret) */
  log: (message: string) => void;
  ownAudiences: string[];
}

const GRANT_ID = /^[0-9a-f]{64}$/;
const BAD_GRANT = 'the delegation grant is not valid for this caller';

export class RequestContext {
  /** set once the caller is known, for the request log */
  subject?: string;
  actor?: string;

  constructor(
    readonly app: App,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly query: URLSearchParams,
  ) {}

  /** The direct caller from `Authorization: Bearer` (scheme case-insensitive, RFC 9110 §11.1). */
  async identity(): Promise<Identity> {
    const header = this.req.headers.authorization;
    const m = typeof header === 'string' ? /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header) : null;
    if (!m || m[1] === undefined) throw problem('unauthenticated', 'a bearer token is required');
    const id = await this.app.verifier.verify(m[1]);
    this.subject = id.subject;
    return id;
  }

  /** The caller as policy sees it; a `Delegation` header makes the grant's user the effective user. */
  async caller(): Promise<Caller> {
    const direct = await this.identity();
    const header = this.req.headers.delegation;
    if (header === undefined) return { user: direct, userIsAdmin: isAdmin(direct, this.app.config.admins) };
    const actor = findActor(direct, this.app.config.actors);
    const grant = typeof header === 'string' && GRANT_ID.test(header) ? this.app.delegations.get(header) : undefined;
    // One answer for unknown, ended, and someone else's grant: a stolen grant id buys nothing (SPEC §15).
    if (!actor || !grant || grant.actorSubject !== direct.subject) throw problem('unauthenticated', BAD_GRANT);
    this.subject = grant.user.subject;
    this.actor = direct.subject;
    return { user: grant.user, userIsAdmin: grant.userIsAdmin, delegation: { grant, actor: grant.actor, actorIdentity: direct } };
  }

  /** Routes that a grant cannot reach (delegation management) refuse a `Delegation` header outright. */
  async directCaller(): Promise<Identity> {
    const id = await this.identity();
    if (this.req.headers.delegation !== undefined) {
      throw problem('actor_not_allowed', 'delegation grants are managed by direct callers only');
    }
    return id;
  }
}
