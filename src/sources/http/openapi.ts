// The OpenAPI document of an http source (`x-svc-spec-uri`, JSON or YAML, OpenAPI 3): which
// operations exist and where their parameters go. Read once at load, with the source's credentials.
import { parse } from 'yaml';
import { ErrorCode, PublicError } from '../../shared/errors.js';

export interface OpenApiOperation {
  readonly id?: string;
  readonly method: string;
  readonly path: string;
  /** Parameter name -> where it goes (path, query, header). */
  readonly params: ReadonlyMap<string, 'path' | 'query' | 'header'>;
  readonly hasBody: boolean;
  readonly summary?: string;
  /** OpenAPI schema `type` of each parameter, for self_defined catalogs. */
  readonly types: ReadonlyMap<string, string>;
}

export interface OpenApiDocument {
  readonly byId: ReadonlyMap<string, OpenApiOperation>;
  /** `GET /orders/{id}` -> operation. */
  readonly byPath: ReadonlyMap<string, OpenApiOperation>;
  /** components.securitySchemes, for x-svc-security's schema_name. */
  readonly schemes: Readonly<Record<string, unknown>>;
  /** The parsed document (self-description reads its schemas). */
  readonly doc: Readonly<Record<string, unknown>>;
}

type Json = Record<string, unknown>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'];

export function readOpenApi(source: string, text: string): OpenApiDocument {
  let doc: Json;
  try {
    doc = parse(text, { maxAliasCount: 100 }) as Json;
  } catch (e) {
    throw new PublicError(ErrorCode.CatalogInvalid, `http source "${source}": the OpenAPI document does not parse: ${(e as Error).message.split('\n')[0]}`);
  }
  const paths = (doc?.paths ?? {}) as Record<string, Json>;
  const byId = new Map<string, OpenApiOperation>();
  const byPath = new Map<string, OpenApiOperation>();
  for (const [path, item] of Object.entries(paths)) {
    const shared = (item.parameters ?? []) as Json[];
    for (const m of METHODS) {
      const op = item[m] as Json | undefined;
      if (!op) continue;
      const params = new Map<string, 'path' | 'query' | 'header'>();
      const types = new Map<string, string>();
      for (const p of [...shared, ...((op.parameters ?? []) as Json[])]) {
        const place = p.in as string;
        if (place !== 'path' && place !== 'query' && place !== 'header') continue;
        params.set(String(p.name), place);
        types.set(String(p.name), String(((p.schema ?? {}) as Json).type ?? 'string'));
      }
      const operation: OpenApiOperation = {
        ...(op.operationId ? { id: String(op.operationId) } : {}),
        method: m.toUpperCase(), path, params, types, hasBody: op.requestBody !== undefined,
        ...(op.summary ? { summary: String(op.summary) } : {}),
      };
      if (operation.id) byId.set(operation.id, operation);
      byPath.set(`${operation.method} ${path}`, operation);
    }
  }
  const schemes = (((doc?.components ?? {}) as Json).securitySchemes ?? {}) as Json;
  return { byId, byPath, schemes, doc: doc ?? {} };
}
