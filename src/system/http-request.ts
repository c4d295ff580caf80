// `function { core { http_data_source_request_scalar(source, path, method, headers, parameters,
// body, jq) } }` (hugr's core function): one request to a loaded http source, below its base URL,
// with its credentials; the answer's JSON text after the jq program, as hugr answers it. The call can
// reach any path of the source with the source's credentials, so it is a system field: admin only
// unless a role is granted it (docs/http-sources.md).
import { ErrorCode, PublicError } from '../shared/errors.js';
import { stringifyJson } from '../shared/json.js';
import { HttpSource } from '../sources/http/source.js';
import type { SourceRegistry } from '../sources/registry.js';

export async function httpRequest(registry: SourceRegistry, args: Record<string, unknown>): Promise<string | null> {
  const name = String(args.source ?? '');
  const runtime = registry.get(name)?.runtime;
  if (!runtime) throw new PublicError(ErrorCode.BadUserInput, `data source "${name}" is not loaded`);
  if (!(runtime instanceof HttpSource)) throw new PublicError(ErrorCode.BadUserInput, `data source "${name}" is not an http source`);
  const method = String(args.method ?? 'GET').toUpperCase();
  const path = String(args.path ?? '');
  // Messages name the method and the path without its query string (values stay out of them).
  const label = `${method} ${path.split('?')[0]}`;
  const answer = await runtime.request({ method, path, headers: args.headers ?? null, params: args.parameters ?? null, body: args.body ?? null, jq: String(args.jq ?? '') }, label);
  if (answer === null || answer === undefined) return null;
  return typeof answer === 'string' ? answer : stringifyJson(answer);
}
