// `@join` fields (SPEC §3.3): a declared join to another object, by field pairs, by an SQL condition
// over `[source.f]` and `[dest.f]`, or both. Shared by the catalog compiler and extension sources
// (whose targets live in other sources).
import type { ColumnField, JoinSqlPart, Location, Relation } from './model.js';
import { where } from './errors.js';

/** A `@join` field as written, before its target is known. */
export interface PendingJoin {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** `[T]`: a list relation (with aggregation twins); `T`: at most one related row. */
  readonly list: boolean;
  /** The field's type name as written (must name the target). */
  readonly type: string;
  readonly description?: string;
  readonly loc: Location;
}

interface Side {
  readonly label: string;
  readonly fields: readonly ColumnField[];
}

const asList = (v: unknown): string[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

function columnOf(side: Side, field: string, problems: string[], at: string): string {
  const f = side.fields.find((x) => x.name === field);
  if (f && f.sql === undefined) return f.column;
  problems.push(f ? `field "${field}" of "${side.label}" is computed (@sql) and cannot join ${at}` : `unknown field "${field}" of "${side.label}" in @join ${at}`);
  return field;
}

/** `[source.f]` / `[dest.f]` in the join condition -> physical columns; other text stays as written. */
function joinSql(sql: string, owner: Side, target: Side, problems: string[], at: string): JoinSqlPart[] {
  const parts: JoinSqlPart[] = [];
  let last = 0;
  for (const m of sql.matchAll(/\[(source|dest)\.([A-Za-z_][A-Za-z0-9_]*)\]/g)) {
    parts.push(sql.slice(last, m.index));
    const side = m[1] as 'source' | 'dest';
    parts.push({ side, column: columnOf(side === 'source' ? owner : target, m[2]!, problems, at) });
    last = m.index + m[0].length;
  }
  parts.push(sql.slice(last));
  return parts;
}

/**
 * The relation of one `@join` field. `target` is the object named by `references_name`, found by
 * the caller (in the same catalog, or among the served ones for an extension).
 */
export function joinRelation(
  j: PendingJoin, owner: Side, target: Side & { readonly name: string }, problems: string[],
): Relation | undefined {
  const at = where(j.loc);
  const src = asList(j.args.source_fields);
  const dst = asList(j.args.references_fields);
  const sql = typeof j.args.sql === 'string' ? j.args.sql : undefined;
  if (src.length !== dst.length) {
    problems.push(`@join of "${owner.label}.${j.name}" must pair source_fields and references_fields ${at}`);
    return undefined;
  }
  if (!src.length && !sql) {
    problems.push(`@join of "${owner.label}.${j.name}" needs source_fields/references_fields or sql ${at}`);
    return undefined;
  }
  return {
    name: j.name,
    kind: j.list ? 'many' : 'one',
    target: target.name,
    sourceFields: src.map((f) => columnOf(owner, f, problems, at)),
    targetFields: dst.map((f) => columnOf(target, f, problems, at)),
    ...(sql ? { joinSql: joinSql(sql, owner, target, problems, at) } : {}),
    declared: true,
    ...(j.description ? { description: j.description } : {}),
  };
}
