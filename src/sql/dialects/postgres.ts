// PostgreSQL dialect: JSON built with json_build_object / json_agg, lists as arrays.
import type { ScalarName } from '../../catalog/model.js';
import type { AggFn } from '../../planner/ir/aggregate.js';
import type { ParamExpr } from '../../planner/ir/expr.js';
import { SqlCompiler, type SqlContext } from '../compiler.js';
import { jsonKey } from '../keys.js';

const TYPES: Record<ScalarName, string> = {
  String: 'text', Int: 'integer', BigInt: 'bigint', Float: 'double precision', Boolean: 'boolean', Date: 'date',
  Time: 'time', Timestamp: 'timestamptz', DateTime: 'timestamp', Interval: 'interval', JSON: 'jsonb',
  Geometry: 'geometry', IntRange: 'int4range', BigIntRange: 'int8range', TimestampRange: 'tstzrange', H3Cell: 'text',
  Vector: 'real[]',
};

/** json_build_object takes at most 100 arguments. */
const MAX_PAIRS = 50;

export class PostgresCompiler extends SqlCompiler {
  readonly dialect = 'postgres';

  protected override sqlType(scalar: ScalarName): string {
    return TYPES[scalar];
  }

  protected override param(p: ParamExpr, ctx: SqlContext): string {
    if (!p.list) return super.param(p, ctx);
    const values = Array.isArray(p.value) ? p.value : [p.value];
    return `ARRAY[${values.map((v) => `$${ctx.add(this.bindValue(v, p.scalar))}::${this.sqlType(p.scalar)}`).join(', ')}]::${this.sqlType(p.scalar)}[]`;
  }

  protected override jsonObject(pairs: readonly [string, string][], _ctx: SqlContext): string {
    const chunks: string[] = [];
    for (let i = 0; i < pairs.length; i += MAX_PAIRS) {
      chunks.push(`json_build_object(${pairs.slice(i, i + MAX_PAIRS).map(([k, v]) => `${jsonKey(k)}, ${v}`).join(', ')})`);
    }
    if (chunks.length === 1) return chunks[0]!;
    return `(${chunks.map((c) => `${c}::jsonb`).join(' || ')})::json`;
  }

  protected override jsonArrayAgg(value: string, orderBy: string, emptyAsNull: boolean): string {
    const agg = `json_agg(${value}${orderBy ? ` ORDER BY ${orderBy}` : ''})`;
    return emptyAsNull ? agg : `COALESCE(${agg}, '[]'::json)`;
  }

  protected override renderScalar(expr: string, scalar: ScalarName, list: boolean, ctx: SqlContext): string {
    if (list) return expr;
    switch (scalar) {
      case 'Timestamp': {
        const utc = ctx.timezone === 'UTC';
        const local = utc ? `(${expr} AT TIME ZONE 'UTC')` : `(${expr} AT TIME ZONE ${ctx.zone()}::text)`;
        const seconds = `extract(epoch FROM ${local} - (${expr} AT TIME ZONE 'UTC'))::integer`;
        const suffix = utc ? `'Z'` : `(CASE WHEN ${seconds} < 0 THEN '-' ELSE '+' END || lpad((abs(${seconds}) / 3600)::text, 2, '0') || ':' || lpad(((abs(${seconds}) % 3600) / 60)::text, 2, '0'))`;
        return `CASE WHEN ${expr} IS NULL THEN NULL WHEN extract(microseconds FROM ${expr})::bigint % 1000000 = 0 THEN to_char(${local}, 'YYYY-MM-DD"T"HH24:MI:SS') || ${suffix} ELSE to_char(${local}, 'YYYY-MM-DD"T"HH24:MI:SS.US') || ${suffix} END`;
      }
      case 'DateTime':
        return `CASE WHEN ${expr} IS NULL THEN NULL WHEN extract(microseconds FROM ${expr})::bigint % 1000000 = 0 THEN to_char(${expr}, 'YYYY-MM-DD"T"HH24:MI:SS') ELSE to_char(${expr}, 'YYYY-MM-DD"T"HH24:MI:SS.US') END`;
      case 'Date':
      case 'Time':
        return `(${expr})::text`;
      default:
        return expr;
    }
  }

  protected override aggregateCall(fn: AggFn, arg: string | undefined, distinct: boolean, sep: string | undefined, filter: string | undefined): string {
    const d = distinct ? 'DISTINCT ' : '';
    const f = (extra?: string) => {
      const conds = [filter, extra].filter(Boolean);
      return conds.length ? ` FILTER (WHERE ${conds.join(' AND ')})` : '';
    };
    switch (fn) {
      case 'count': return `count(${arg ? `${d}${arg}` : '*'})${f()}`;
      case 'list': return `to_json(array_agg(${d}${arg}${distinct ? ` ORDER BY ${arg}` : ''})${f(`${arg} IS NOT NULL`)})`;
      // PostgreSQL 15 has no any_value/last: take the ends of the collected non-null values.
      case 'any': return `(array_agg(${arg})${f(`${arg} IS NOT NULL`)})[1]`;
      case 'last': return `(array_agg(${arg})${f(`${arg} IS NOT NULL`)})[count(${arg})${f()}]`;
      case 'string_agg': return `string_agg(${d}(${arg})::text, ${sep ?? "','"})${f()}`;
      // numeric averages would print 30 decimals; the wire format is a double (SPEC §3.4).
      case 'avg': return `(avg(${d}${arg})${f()})::double precision`;
      default: return `${fn}(${d}${arg})${f()}`;
    }
  }

  protected override inZone(expr: string, zone: string): string {
    return `(${expr} AT TIME ZONE ${zone}::text)`;
  }

  protected override truncInZone(unit: string, expr: string, zone: string): string {
    return `date_trunc('${unit}', ${expr}, ${zone}::text)`;
  }

  protected override regexMatch(left: string, right: string): string {
    return `${left} ~ ${right}`;
  }

  protected override jsonHasKey(left: string, key: string): string {
    return `jsonb_exists((${left})::jsonb, ${key})`;
  }

  protected override jsonContains(left: string, right: string): string {
    return `(${left})::jsonb @> (${right})::jsonb`;
  }

  protected override listContainsAll(left: string, right: string): string {
    return `${left} @> ${right}`;
  }

  protected override listIntersects(left: string, right: string): string {
    return `${left} && ${right}`;
  }
}
