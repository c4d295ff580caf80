// The grammar of generated parameters (seed 002 "Generated parameters" rules 1, 3, 7, 10).

export type Generator =
  | { kind: 'exchange'; audience: string; scope?: string }
  | { kind: 'claim'; claim: string };

export type Classified = { literal: string } | { generator: Generator } | { error: string };

// Claims that identify a session or a single token rather than the caller (rule 3).
const REFUSED_CLAIMS = new Set(['sid', 'session_state', 'jti', 'nonce', 'at_hash', 'c_hash', 's_hash']);

/**
 * Rule 7: exactly one `+` after the lowercase `mint` makes a generator; two or more make a literal
 * served with one `+` dropped; anything else is a literal as written.
 */
export function classify(value: string): Classified {
  const m = /^mint(\++)/.exec(value);
  if (!m || m[1] === undefined) return { literal: value };
  if (m[1].length >= 2) return { literal: `mint${value.slice(5)}` };
  const rest = value.slice(5);
  if (rest.startsWith('exchange://')) return parseExchange(rest.slice('exchange://'.length));
  if (rest.startsWith('claim://')) return parseClaim(rest.slice('claim://'.length));
  if (rest.startsWith('login://') || rest.startsWith('rule://')) {
    return { error: 'is a generator of a kind this server does not serve (only mint+exchange:// and mint+claim://)' };
  }
  return { error: 'starts with mint+ but is not a known generator; write mint++ for a literal' };
}

/** The stored form of a literal: a value starting with `mint+` gets its `+` doubled. */
export function escapeLiteral(value: string): string {
  return value.startsWith('mint+') ? `mint+${value.slice(4)}` : value;
}

function parseExchange(body: string): Classified {
  const q = body.indexOf('?');
  const rawAudience = q < 0 ? body : body.slice(0, q);
  let audience: string;
  try {
    audience = decodeURIComponent(rawAudience);
  } catch {
    return { error: 'has a badly percent-encoded audience' };
  }
  if (audience === '') return { error: 'names no audience' };
  if (q < 0) return { generator: { kind: 'exchange', audience } };
  // Rule 1: the query is only `scope=<scope>`, form-encoded.
  const m = /^scope=([^&=]*)$/.exec(body.slice(q + 1));
  if (!m || m[1] === undefined) return { error: 'has a query other than scope=<scope>' };
  let scope: string;
  try {
    scope = decodeURIComponent(m[1].replace(/\+/g, ' '));
  } catch {
    return { error: 'has a badly percent-encoded scope' };
  }
  if (scope.trim() === '') return { error: 'has an empty scope' };
  return { generator: { kind: 'exchange', audience, scope } };
}

function parseClaim(claim: string): Classified {
  if (claim === '') return { error: 'names no claim' };
  if (REFUSED_CLAIMS.has(claim)) return { error: 'names a claim that identifies a session or a token, which is never served' };
  return { generator: { kind: 'claim', claim } };
}

/** Rule 10: the legacy provider `token_exchange` generates `bearer_token` (http) or `token` (quack). */
export function legacyGenerator(
  type: string,
  provider: string,
  params: Record<string, unknown>,
): { key: string; generator: Generator } | undefined {
  if (provider !== 'token_exchange') return undefined;
  const key = type === 'http' ? 'bearer_token' : type === 'quack' ? 'token' : undefined;
  if (!key || typeof params.audience !== 'string') return undefined;
  const scope = typeof params.scope === 'string' && params.scope !== '' ? params.scope : undefined;
  return { key, generator: { kind: 'exchange', audience: params.audience, ...(scope ? { scope } : {}) } };
}

/** A compact JWS or JWE: a claim shaped like a token is never served (rule 2). */
export function looksLikeJwt(v: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)?$/.test(v.trim());
}
