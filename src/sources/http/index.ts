// The `http` kind (SPEC §3.1, docs/http-sources.md): a REST service whose endpoints are catalog functions.
import { substituteEnv } from '../../shared/env-placeholders.js';
import type { SourceKind } from '../kind.js';
import { introspectOpenApi } from './introspect.js';
import { HttpSource } from './source.js';

export const http = {
  type: 'http',
  open: (spec, { config, engine, jq, readFile }) =>
    HttpSource.connect({
      name: spec.name, path: substituteEnv(spec.path ?? ''), readOnly: !!spec.read_only, queryTimeoutMs: config.QUERY_TIMEOUT, engine,
      ...(jq ? { jq } : {}), ...(readFile ? { readFile } : {}), ...(spec.catalog ? { catalog: spec.catalog } : {}),
    }),
  /** Its OpenAPI document (x-svc-spec-path or x-svc-spec-uri). */
  introspect: (spec, { config, readFile, jq }) => introspectOpenApi(spec.name, substituteEnv(spec.path ?? ''), config.QUERY_TIMEOUT, readFile, jq),
  capabilities: {
    // A list-returning function is a REST call answering a list, never a database table function.
    catalog: { tableFunctions: false },
    h3: false,
    catalogOptional: true,
    extendsOthers: false,
    attachesFile: false,
  },
} as const satisfies SourceKind<'http'>;
