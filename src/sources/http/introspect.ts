// `self_defined: true` on an http source with an OpenAPI document: every operation with an
// operationId becomes a function (GET and HEAD under Function, the others under MutationFunction),
// its parameters the arguments, a request body one `body: JSON` argument, the answer JSON. The SDL is
// the text an author would write, shown by describe_data_source_schema(self: true).
import type { IntrospectedCatalog } from '../introspect-sdl.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { CredentialSource } from './credentials.js';
import { parseHttpPath } from './options.js';
import type { JqRunner } from './request.js';
import { type LocalFileReader, prepare } from './source.js';

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const SCALAR: Readonly<Record<string, string>> = { integer: 'Int', number: 'Float', boolean: 'Boolean', string: 'String' };

export async function introspectOpenApi(sourceName: string, path: string, queryTimeoutMs: number, readFile?: LocalFileReader, jq?: JqRunner): Promise<IntrospectedCatalog> {
  const o = parseHttpPath(sourceName, path, queryTimeoutMs);
  if (!o.specUri && !o.specPath) throw new PublicError(ErrorCode.BadUserInput, `a self-defined http source needs an OpenAPI document (x-svc-spec-uri or x-svc-spec-path); "${sourceName}" has none`);
  const doc = (await prepare(sourceName, o, new CredentialSource(sourceName, o), readFile, jq))!;
  const warnings: string[] = [];
  const query: string[] = [];
  const mutation: string[] = [];
  for (const op of doc.byPath.values()) {
    if (!op.id || !NAME.test(op.id)) {
      warnings.push(`${op.method} ${op.path}: no operationId usable as a GraphQL name; skipped`);
      continue;
    }
    const args = [...op.params.keys()].filter((n) => {
      if (NAME.test(n)) return true;
      warnings.push(`${op.id}: parameter "${n}" is not a GraphQL name; not an argument`);
      return false;
    }).map((n) => `${n}: ${SCALAR[op.types.get(n) ?? ''] ?? 'String'}${op.params.get(n) === 'path' ? '!' : ''}`);
    if (op.hasBody) args.push('body: JSON');
    const doc = op.summary ? `  ${JSON.stringify(op.summary)}\n` : '';
    const field = `${doc}  ${op.id}${args.length ? `(${args.join(', ')})` : ''}: JSON @function(name: ${JSON.stringify(op.id)})`;
    (op.method === 'GET' || op.method === 'HEAD' ? query : mutation).push(field);
  }
  const parts = [
    [`# Functions of the OpenAPI document of http source ${JSON.stringify(sourceName)} (self_defined).`, ...warnings.map((w) => `# warning: ${w}`)].join('\n'),
    ...(query.length ? [`extend type Function {\n${query.join('\n')}\n}`] : []),
    ...(mutation.length ? [`extend type MutationFunction {\n${mutation.join('\n')}\n}`] : []),
  ];
  return { sdl: `${parts.join('\n\n')}\n`, warnings };
}
