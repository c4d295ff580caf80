import type { IssuerConfig, SecretsConfig } from '../config.js';
import type { RequestContext } from '../context.js';
import { mayCreate } from '../policy.js';
import { writeJson } from '../problem.js';
import { onlyQuery } from './entries.js';

// Discovery and whoami of SPEC §15.

export const PROTOCOL = 'duckdb-secrets/1';

export function discoveryDocument(config: SecretsConfig): unknown {
  return {
    protocol: PROTOCOL,
    api: config.publicUrl,
    issuers: config.issuers.map(publicIssuer),
    capabilities: { write: true, annotate: true, dynamic: true, delegation: config.actors.length > 0, variables: true },
  };
}

/** Optional lists are absent when not configured, never `[]`, so a client can tell "none" from "unknown". */
function publicIssuer(i: IssuerConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { issuer: i.issuer, audience: i.audience };
  if (i.client_id !== undefined) out.client_id = i.client_id;
  if (i.scopes?.length) out.scopes = i.scopes;
  if (i.human_flows?.length) out.human_flows = i.human_flows;
  if (i.service_flows?.length) out.service_flows = i.service_flows;
  if (i.audience_parameter !== undefined) out.audience_parameter = i.audience_parameter;
  return out;
}

export function getDiscovery(ctx: RequestContext): void {
  writeJson(ctx.res, 200, discoveryDocument(ctx.app.config));
}

export async function getWhoami(ctx: RequestContext): Promise<void> {
  const caller = await ctx.caller();
  onlyQuery(ctx, []);
  const expiresAt = caller.delegation ? caller.delegation.grant.expiresAt : caller.user.exp * 1000;
  writeJson(ctx.res, 200, {
    issuer: caller.user.issuer,
    subject: caller.user.subject,
    roles: caller.user.memberships,
    actor: caller.delegation ? caller.delegation.grant.actor.principal : null,
    expires_at: new Date(expiresAt).toISOString(),
    permissions: { create: mayCreate(caller) },
  });
}
