// The kinds of data source svc serves (SPEC §3.1 `type`): one line per kind. Every list of kinds the
// server keeps is read from here (docs/extending.md "A new kind of data source").
import { ErrorCode, PublicError } from '../shared/errors.js';
import { duckdb } from './duckdb/index.js';
import { extension } from './extension/index.js';
import { http } from './http/index.js';
import type { KindContext, SourceKind, SourceSpec } from './kind.js';
import { mysql } from './mysql/index.js';
import { postgres } from './postgres/index.js';
import type { DataSourceRuntime } from './types.js';

export const SOURCE_KINDS = [duckdb, postgres, mysql, http, extension] as const;

/** The `type` names, in registry order (source.yaml's enum). */
export const SOURCE_TYPES = SOURCE_KINDS.map((k) => k.type) as [(typeof SOURCE_KINDS)[number]['type'], ...(typeof SOURCE_KINDS)[number]['type'][]];

const BY_TYPE: ReadonlyMap<string, SourceKind> = new Map(SOURCE_KINDS.map((k) => [k.type, k]));

/** The kind named by a data source row's `type`; an unknown name is the caller's error. */
export function sourceKind(type: string): SourceKind {
  const kind = BY_TYPE.get(type);
  if (!kind) throw new PublicError(ErrorCode.BadUserInput, `data source type "${type}" is not supported (${SOURCE_TYPES.join(', ')})`);
  return kind;
}

/** The kind of that name, or undefined. */
export function findKind(type: string): SourceKind | undefined {
  return BY_TYPE.get(type);
}

/** Opens the runtime of a data source row, by its kind. */
export function openSource(spec: SourceSpec, ctx: KindContext): Promise<DataSourceRuntime> {
  return sourceKind(spec.type).open(spec, ctx);
}
