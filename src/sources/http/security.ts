// `x-svc-security` (hugr's `x-hugr-security`): the security object of an http source, JSON in the
// path, optionally wrapped in double quotes as hugr's examples write it. Fields hugr documents:
// schema_name, type (http | apiKey | oauth2), scheme (basic), name, in (header | query), api_key,
// username, password, client_id, client_secret, flow_name, flows (an OpenAPI OAuthFlows object),
// timeout. Fields left out are taken from the OpenAPI document's `components.securitySchemes`
// entry named `schema_name`. Values are credentials: they never reach a message.
import { parseDurationMs } from '../../shared/duration.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';

/** A token or refresh request reshaped by jq (`x-svc-token-transform`, `x-svc-refresh-transform`). */
export interface TokenTransform {
  readonly method: string;
  readonly requestBody?: string;
  readonly responseBody?: string;
}

export interface OAuthFlow {
  readonly kind: 'clientCredentials' | 'password';
  readonly tokenUrl: string;
  readonly refreshUrl?: string;
  readonly scopes: readonly string[];
  readonly tokenTransform?: TokenTransform;
  readonly refreshTransform?: TokenTransform;
}

export type Security =
  | { readonly type: 'basic'; readonly username: string; readonly password: string }
  | { readonly type: 'apiKey'; readonly in: 'header' | 'query'; readonly name: string; readonly apiKey: string }
  | {
      readonly type: 'oauth2';
      readonly flow: OAuthFlow;
      readonly clientId?: string;
      readonly clientSecret?: string;
      readonly username?: string;
      readonly password?: string;
      /** The variables token transforms see ($username, $client_id, ...). */
      readonly variables: Readonly<Record<string, string>>;
    };

type Json = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/** The object as written in the path (JSON, or JSON wrapped in double quotes). */
export function readSecurityText(source: string, text: string): Json {
  let t = text.trim();
  if (t.startsWith('"') && t.endsWith('"') && !t.startsWith('"{"')) t = t.slice(1, -1);
  else if (t.startsWith('"{') && t.endsWith('}"')) t = t.slice(1, -1);
  try {
    const v = JSON.parse(t) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
    return v as Json;
  } catch {
    // The text may hold a credential: the message does not quote it.
    throw new PublicError(ErrorCode.BadUserInput, `data source "${source}": x-svc-security must be a JSON object (optionally in double quotes)`);
  }
}

/** A path parameter value as hugr writes it: optionally wrapped in double quotes. */
export function unquote(v: string): string {
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
}

export function securityTimeoutMs(source: string, s: Json): number | undefined {
  const t = str(s.timeout);
  if (t === undefined) return undefined;
  const ms = parseDurationMs(t);
  if (ms === undefined || ms <= 0) throw new PublicError(ErrorCode.BadUserInput, `data source "${source}": x-svc-security timeout must be a duration such as "30s"`);
  return ms;
}

function transformOf(source: string, v: unknown, what: string): TokenTransform | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new PublicError(ErrorCode.BadUserInput, `data source "${source}": ${what} must be an object {method, request_body, response_body}`);
  const o = v as Json;
  return { method: (str(o.method) ?? 'POST').toUpperCase(), ...(str(o.request_body) ? { requestBody: str(o.request_body)! } : {}), ...(str(o.response_body) ? { responseBody: str(o.response_body)! } : {}) };
}

const FLOW_NAMES: Readonly<Record<string, OAuthFlow['kind']>> = { clientCredentials: 'clientCredentials', client_credentials: 'clientCredentials', password: 'password' };

/**
 * The security of the source: the path's object, completed from the OpenAPI document's scheme
 * `schema_name` (`schemes`: components.securitySchemes).
 */
export function resolveSecurity(source: string, written: Json, schemes: Readonly<Record<string, unknown>> | undefined): Security {
  const bad = (msg: string): never => {
    throw new PublicError(ErrorCode.BadUserInput, `data source "${source}": x-svc-security ${msg}`);
  };
  const name = str(written.schema_name);
  const scheme = (name && schemes?.[name] && typeof schemes[name] === 'object' ? schemes[name] : {}) as Json;
  if (name && schemes && !schemes[name]) bad(`names schema "${name}", which the OpenAPI document does not define`);
  const s: Json = { ...scheme, ...written };
  const type = str(s.type);
  if (type === 'http') {
    if ((str(s.scheme) ?? 'basic').toLowerCase() !== 'basic') bad(`of type http supports scheme basic`);
    if (str(s.username) === undefined || str(s.password) === undefined) bad('of scheme basic needs username and password');
    return { type: 'basic', username: str(s.username)!, password: str(s.password)! };
  }
  if (type === 'apiKey') {
    const where = str(s.in) ?? 'header';
    if (where !== 'header' && where !== 'query') bad(`"in" must be header or query`);
    if (!str(s.name)) bad('of type apiKey needs name (the header or query parameter)');
    if (str(s.api_key) === undefined) bad('of type apiKey needs api_key');
    return { type: 'apiKey', in: where as 'header' | 'query', name: str(s.name)!, apiKey: str(s.api_key)! };
  }
  if (type === 'oauth2') {
    const flows = (s.flows && typeof s.flows === 'object' ? s.flows : {}) as Json;
    const flowName = str(s.flow_name) ?? Object.keys(flows).find((k) => FLOW_NAMES[k]);
    const kind = flowName ? FLOW_NAMES[flowName] : undefined;
    if (!kind) bad(`of type oauth2 supports the flows clientCredentials and password (flow_name)`);
    const flow = (flows[flowName!] ?? flows[kind!]) as Json | undefined;
    if (!flow || !str(flow.tokenUrl)) bad(`flow "${flowName}" has no tokenUrl (in flows, or in the OpenAPI document's scheme)`);
    const variables: Record<string, string> = {};
    for (const [k, v] of Object.entries({ type, schema_name: name, flow: flowName, username: s.username, password: s.password, client_id: s.client_id, client_secret: s.client_secret })) {
      if (str(v) !== undefined) variables[k] = str(v)!;
    }
    if (kind === 'password' && (str(s.username) === undefined || str(s.password) === undefined)) bad('flow password needs username and password');
    return {
      type: 'oauth2',
      flow: {
        kind: kind!,
        tokenUrl: str(flow!.tokenUrl)!,
        ...(str(flow!.refreshUrl) ? { refreshUrl: str(flow!.refreshUrl)! } : {}),
        scopes: Object.keys((flow!.scopes ?? {}) as Json),
        ...(transformOf(source, flow!['x-svc-token-transform'] ?? flow!['x-hugr-token-transform'], 'x-svc-token-transform') ? { tokenTransform: transformOf(source, flow!['x-svc-token-transform'] ?? flow!['x-hugr-token-transform'], 'x-svc-token-transform')! } : {}),
        ...(transformOf(source, flow!['x-svc-refresh-transform'] ?? flow!['x-hugr-refresh-transform'], 'x-svc-refresh-transform') ? { refreshTransform: transformOf(source, flow!['x-svc-refresh-transform'] ?? flow!['x-hugr-refresh-transform'], 'x-svc-refresh-transform')! } : {}),
      },
      ...(str(s.client_id) !== undefined ? { clientId: str(s.client_id)! } : {}),
      ...(str(s.client_secret) !== undefined ? { clientSecret: str(s.client_secret)! } : {}),
      ...(str(s.username) !== undefined ? { username: str(s.username)! } : {}),
      ...(str(s.password) !== undefined ? { password: str(s.password)! } : {}),
      variables,
    };
  }
  return bad(`type must be http, apiKey or oauth2${type ? `, not "${type}"` : ' (or name a scheme of the OpenAPI document in schema_name)'}`);
}
