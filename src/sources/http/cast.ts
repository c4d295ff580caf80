// A JSON answer -> the function's declared type (SPEC §3.3 json_cast): objects keep the declared
// fields (by name), numbers and booleans written as text are read as such, lists stay lists. A value
// that cannot be the declared type is an error naming the field, not a silently wrong answer.
import { isScalar, type StructType } from '../../catalog/model.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';

export interface CastContext {
  readonly source: string;
  readonly structs: ReadonlyMap<string, StructType>;
}

/**
 * Names the kind of value found, never the value: the remote's answer may hold what the caller may
 * not see (docs/http-sources.md: remote bodies never appear in messages; issue 31).
 */
function fail(ctx: CastContext, at: string, expected: string, v: unknown): never {
  const kind = v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
  throw new PublicError(ErrorCode.QueryFailed, `http source "${ctx.source}": the answer at ${at || 'the top'} is ${kind}, not ${expected}`);
}

function text(ctx: CastContext, type: string, v: unknown, at: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return fail(ctx, at, type, v);
}

function scalar(ctx: CastContext, type: string, v: unknown, at: string): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'Int':
    case 'BigInt':
    case 'Float': {
      if (typeof v === 'number' || typeof v === 'bigint') return v;
      if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return type === 'Float' ? Number(v) : /^-?\d+$/.test(v.trim()) && !Number.isSafeInteger(Number(v)) ? BigInt(v.trim()) : Number(v);
      return fail(ctx, at, type, v);
    }
    case 'Boolean':
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      return fail(ctx, at, type, v);
    case 'Timestamp':
    case 'DateTime':
      // A number is Unix seconds (hugr's FromUnixTime transform of OpenAPI self-description).
      if (typeof v === 'number' && Number.isFinite(v)) return new Date(v * 1000).toISOString();
      return text(ctx, type, v, at);
    case 'String':
    case 'Date':
    case 'Time':
    case 'Interval':
    case 'H3Cell':
      return text(ctx, type, v, at);
    case 'Geometry':
      // GeoJSON written as text (hugr's StringAsGeoJson) is read as the object.
      if (typeof v === 'string' && v.trim().startsWith('{')) {
        try {
          return JSON.parse(v) as unknown;
        } catch {
          return fail(ctx, at, type, v);
        }
      }
      return v;
    default:
      return v; // JSON and the rest: as they came
  }
}

export function castTo(ctx: CastContext, type: string, list: boolean, v: unknown, at = ''): unknown {
  if (v === null || v === undefined) return null;
  if (list) {
    if (!Array.isArray(v)) return fail(ctx, at, `a list of ${type}`, v);
    return v.map((x, i) => castTo(ctx, type, false, x, `${at}[${i}]`));
  }
  if (isScalar(type)) return scalar(ctx, type, v, at);
  const struct = ctx.structs.get(type);
  if (!struct) return v;
  if (typeof v !== 'object' || Array.isArray(v)) return fail(ctx, at, `an object (${type})`, v);
  const o = v as Record<string, unknown>;
  // `@field_source(field: "1h")`: the field reads another key of the answer (hugr's catalogs rename this way).
  return Object.fromEntries(struct.fields.map((f) => [f.name, castTo(ctx, f.type, f.list, o[f.source ?? f.name], at ? `${at}.${f.source ?? f.name}` : f.source ?? f.name)]));
}
