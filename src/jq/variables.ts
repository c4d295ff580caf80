// The `_jq` variable (seed 000 "_jq variable computation"): a jq expression evaluated with no
// input before the GraphQL text is parsed; its object result is merged over the variables.
import type { JqContext } from './context.js';
import type { JqEngine } from './engine.js';
import { JqError, toPublicError } from './errors.js';

export const JQ_VARIABLE = '_jq';

/**
 * Returns the variables with `_jq` evaluated and removed (the same object when there is no `_jq`).
 * The other variables are visible in the expression as `$name`. Throws a PublicError: 400 for a
 * non-string `_jq`, an invalid or failing expression or a result that is not one object; 500 for
 * the time and memory limits.
 */
export async function applyJqVariable<V extends Record<string, unknown> | null | undefined>(
  variables: V,
  engine: JqEngine,
  ctx: JqContext,
): Promise<V | Record<string, unknown>> {
  if (!variables || typeof variables !== 'object' || !(JQ_VARIABLE in variables)) return variables;
  const { [JQ_VARIABLE]: program, ...rest } = variables as Record<string, unknown>;
  if (typeof program !== 'string') throw toPublicError(new JqError('JQ_INVALID', 'the variable _jq must be a string holding a jq expression'));
  let outputs: readonly string[];
  try {
    outputs = (await engine.run({ program, input: 'null', variables: rest, context: ctx })).outputs;
  } catch (e) {
    if (!(e instanceof JqError)) throw e;
    // An expression error fails the request as the caller's mistake (seed 000 rule 3).
    throw toPublicError(e.code === 'JQ_ERROR' ? new JqError('JQ_ERROR', e.message, 400) : e, '_jq: ');
  }
  const value: unknown = outputs.length === 1 ? JSON.parse(outputs[0]!) : undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    const got = outputs.length === 1 ? (Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`) : `${outputs.length} results`;
    throw toPublicError(new JqError('JQ_ERROR', `_jq: the expression must yield one object to merge into the variables, got ${got}`, 400));
  }
  return { ...rest, ...(value as Record<string, unknown>) };
}

/**
 * `_jq` for a whole /query request: the `variables` of a POST body, or the URL-encoded JSON
 * `variables` parameter of a GET. Returns what Apollo should get; unchanged when there is no `_jq`.
 * `program` is the `_jq` text, whose `$names` count as uses of those variables (src/pipeline/validation.ts).
 */
export async function applyJqVariableToRequest(
  request: { method: string; body: unknown; search: string },
  engine: JqEngine,
  ctx: JqContext,
): Promise<{ body: unknown; search: string; program?: string }> {
  const { method, body, search } = request;
  const program = (vars: object): { program?: string } => {
    const p = (vars as Record<string, unknown>)[JQ_VARIABLE];
    return typeof p === 'string' ? { program: p } : {};
  };
  if (method.toUpperCase() === 'POST') {
    const vars = body && typeof body === 'object' ? (body as { variables?: unknown }).variables : undefined;
    if (!vars || typeof vars !== 'object' || Array.isArray(vars) || !(JQ_VARIABLE in vars)) return { body, search };
    return { body: { ...(body as object), variables: await applyJqVariable(vars as Record<string, unknown>, engine, ctx) }, search, ...program(vars) };
  }
  const params = new URLSearchParams(search);
  const text = params.get('variables');
  if (!text || !text.includes(JQ_VARIABLE)) return { body, search };
  let vars: unknown;
  try {
    vars = JSON.parse(text);
  } catch {
    return { body, search }; // Apollo reports the malformed parameter
  }
  if (!vars || typeof vars !== 'object' || Array.isArray(vars) || !(JQ_VARIABLE in vars)) return { body, search };
  params.set('variables', JSON.stringify(await applyJqVariable(vars as Record<string, unknown>, engine, ctx)));
  return { body, search: `?${params.toString()}`, ...program(vars) };
}
