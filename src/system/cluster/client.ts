// Calls from one node to another (SPEC §12): a GraphQL request to the other node's /query,
// authenticated with the cluster secret (header `x-svc-cluster-secret`, SPEC §2).
import type { OperationResult } from '../lifecycle.js';

export const CLUSTER_SECRET_HEADER = 'x-svc-cluster-secret';

export interface NodeCall {
  readonly url: string;
  readonly secret: string;
  readonly timeoutMs: number;
}

/** `(name: String!, tags: [String!])` -> { name: 'String!', tags: '[String!]' } (defaults dropped). */
export function argTypes(declared: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of declared.matchAll(/(\w+)\s*:\s*([\w![\]]+)/g)) out[m[1]!] = m[2]!;
  return out;
}

/** `function { core { cluster { <field>(args) { success message } } } }` as a mutation with variables. */
export function clusterMutation(field: string, args: Readonly<Record<string, unknown>>, types: Readonly<Record<string, string>>): { query: string; variables: Record<string, unknown> } {
  const given = Object.entries(args).filter(([k, v]) => v !== undefined && v !== null && types[k]);
  const decl = given.map(([k]) => `$${k}: ${types[k]}`).join(', ');
  const call = given.map(([k]) => `${k}: $${k}`).join(', ');
  const query = `mutation${decl ? ` (${decl})` : ''} { function { core { cluster { ${field}${call ? `(${call})` : ''} { success message } } } } }`;
  return { query, variables: Object.fromEntries(given) };
}

/**
 * Runs one cluster mutation on another node. Never throws: an unreachable node, a refusal or a
 * timeout is a failed result naming the cause (the per-node summaries of SPEC §12).
 */
export async function callNode(to: NodeCall, field: string, args: Readonly<Record<string, unknown>>, types: Readonly<Record<string, string>>): Promise<OperationResult> {
  const url = `${to.url.replace(/\/+$/, '')}/query`;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CLUSTER_SECRET_HEADER]: to.secret },
      body: JSON.stringify(clusterMutation(field, args, types)),
      signal: AbortSignal.timeout(to.timeoutMs),
    });
    const body = (await res.json().catch(() => undefined)) as
      | { data?: { function?: { core?: { cluster?: Record<string, OperationResult | null> } } } | null; errors?: { message: string }[] }
      | undefined;
    const result = body?.data?.function?.core?.cluster?.[field];
    if (result) return { success: !!result.success, message: String(result.message ?? '') };
    const why = body?.errors?.map((e) => e.message).join('; ') || `HTTP ${res.status}`;
    return { success: false, message: why };
  } catch (e) {
    const err = e as Error;
    return { success: false, message: err.name === 'TimeoutError' ? `no answer within ${to.timeoutMs} ms` : `unreachable (${causeOf(err)})` };
  }
}

function causeOf(e: Error): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? e.message;
}
