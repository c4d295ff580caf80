// `self_defined: true` on an http source with an OpenAPI document: every operation with an
// operationId becomes a function (GET and HEAD under Function, the others under MutationFunction),
// its parameters the arguments, a request body one `body: JSON` argument. The answer's type is
// built from the operation's 200 (or default) JSON response schema, as hugr describes it: objects
// become types (a `$ref` names its type, a nested object is named by its parent and property),
// `x-svc-field-name` renames a field (the JSON key read through `@field_source`), `x-svc-field-type`
// names its scalar (`{type: Timestamp, transform: FromUnixTime}`, `{type: Geometry, transform:
// StringAsGeoJson}`); hugr's `x-hugr-field-name` / `x-hugr-name` and `x-hugr-field-type` /
// `x-hugr-type` are read too. Names that are not GraphQL names are made so. The SDL is the text an
// author would write, shown by describe_data_source_schema(self: true).
import type { IntrospectedCatalog } from '../introspect-sdl.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { CredentialSource } from './credentials.js';
import { parseHttpPath } from './options.js';
import type { JqRunner } from './request.js';
import { type LocalFileReader, prepare } from './source.js';

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const SCALAR: Readonly<Record<string, string>> = { integer: 'Int', number: 'Float', boolean: 'Boolean', string: 'String' };
const KNOWN_SCALARS = new Set(['String', 'Int', 'BigInt', 'Float', 'Boolean', 'Date', 'Time', 'Timestamp', 'DateTime', 'JSON', 'Geometry', 'H3Cell']);

type Json = Record<string, unknown>;

/** A GraphQL name from an OpenAPI one: characters a name cannot hold become `X`, a leading digit gets `_`. */
function graphqlName(name: string): string {
  const n = name.replace(/[^_0-9A-Za-z]/g, 'X');
  return /^[0-9]/.test(n) ? `_${n}` : n || '_';
}

const ext = (s: Json, ...keys: string[]): unknown => keys.map((k) => s[k]).find((v) => v !== undefined);

class TypeBuilder {
  readonly types = new Map<string, string>();
  constructor(private readonly doc: Json, readonly warnings: string[]) {}

  private resolve(s: Json): { schema: Json; ref?: string } {
    const ref = typeof s.$ref === 'string' ? s.$ref : undefined;
    if (!ref) return { schema: s };
    const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
    const target = m ? ((((this.doc.components ?? {}) as Json).schemas ?? {}) as Json)[m[1]!] : undefined;
    if (!target || typeof target !== 'object') {
      this.warnings.push(`${ref}: not found in the document; the field is JSON`);
      return { schema: {} };
    }
    return { schema: target as Json, ref: graphqlName(m![1]!) };
  }

  /** The GraphQL type text of a schema (`[T]`, `T`), adding object types to `types`. */
  typeOf(raw: unknown, parent: string): string {
    const { schema: s, ref } = this.resolve((raw && typeof raw === 'object' ? raw : {}) as Json);
    const declared = ext(s, 'x-svc-field-type', 'x-svc-type', 'x-hugr-field-type', 'x-hugr-type') as Json | undefined;
    if (declared && typeof declared.type === 'string') {
      if (KNOWN_SCALARS.has(declared.type)) return declared.type;
      this.warnings.push(`${parent}: x-svc-field-type "${declared.type}" is not a scalar svc knows; the field is JSON`);
      return 'JSON';
    }
    if (s.type === 'array') return `[${this.typeOf(s.items, `${parent}_item`)}]`;
    const props = (s.properties ?? {}) as Json;
    if (s.type === 'object' || Object.keys(props).length) {
      if (!Object.keys(props).length) return 'JSON';
      const name = ref ?? parent;
      if (this.types.has(name)) return name;
      this.types.set(name, ''); // a cycle meets the name
      const fields = Object.entries(props).map(([key, p]) => {
        const pj = (p && typeof p === 'object' ? p : {}) as Json;
        const renamed = ext(pj, 'x-svc-field-name', 'x-svc-name', 'x-hugr-field-name', 'x-hugr-name');
        const field = graphqlName(typeof renamed === 'string' && renamed ? renamed : key);
        const source = field !== key ? ` @field_source(field: ${JSON.stringify(key)})` : '';
        return `  ${field}: ${this.typeOf(p, `${name}_${graphqlName(key)}`)}${source}`;
      });
      this.types.set(name, `type ${name} {\n${fields.join('\n')}\n}`);
      return name;
    }
    return SCALAR[String(s.type)] ?? 'JSON';
  }
}

/** The operation's answer schema: 200 (or 201, default) with a JSON media type. */
function answerSchema(op: Json): unknown {
  const responses = (op.responses ?? {}) as Json;
  for (const code of ['200', '201', 'default']) {
    const content = (((responses[code] ?? {}) as Json).content ?? {}) as Json;
    const media = Object.keys(content).find((m) => /json/i.test(m));
    if (media) return ((content[media] ?? {}) as Json).schema;
  }
  return undefined;
}

export async function introspectOpenApi(sourceName: string, path: string, queryTimeoutMs: number, readFile?: LocalFileReader, jq?: JqRunner): Promise<IntrospectedCatalog> {
  const o = parseHttpPath(sourceName, path, queryTimeoutMs);
  if (!o.specUri && !o.specPath) throw new PublicError(ErrorCode.BadUserInput, `a self-defined http source needs an OpenAPI document (x-svc-spec-uri or x-svc-spec-path); "${sourceName}" has none`);
  const doc = (await prepare(sourceName, o, new CredentialSource(sourceName, o), readFile, jq))!;
  const warnings: string[] = [];
  const types = new TypeBuilder(doc.doc as Json, warnings);
  const query: string[] = [];
  const mutation: string[] = [];
  const paths = (doc.doc.paths ?? {}) as Json;
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
    const raw = ((paths[op.path] ?? {}) as Json)[op.method.toLowerCase()] as Json;
    const schema = answerSchema(raw ?? {});
    const returns = schema === undefined ? 'JSON' : types.typeOf(schema, `${op.id}_response`);
    const text = op.summary ? `  ${JSON.stringify(op.summary)}\n` : '';
    const field = `${text}  ${op.id}${args.length ? `(${args.join(', ')})` : ''}: ${returns} @function(name: ${JSON.stringify(op.id)}${returns === 'JSON' ? '' : ', json_cast: true'})`;
    (op.method === 'GET' || op.method === 'HEAD' ? query : mutation).push(field);
  }
  const parts = [
    [`# Functions of the OpenAPI document of http source ${JSON.stringify(sourceName)} (self_defined).`, ...warnings.map((w) => `# warning: ${w}`)].join('\n'),
    ...[...types.types.values()].filter(Boolean),
    ...(query.length ? [`extend type Function {\n${query.join('\n')}\n}`] : []),
    ...(mutation.length ? [`extend type MutationFunction {\n${mutation.join('\n')}\n}`] : []),
  ];
  return { sdl: `${parts.join('\n\n')}\n`, warnings };
}
