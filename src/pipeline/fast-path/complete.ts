// Completing a root field's answer without graphql-js, by the rules of its `completeValue`: nested
// values read by response key (then by field name, as `byResponseKey` does), leaves through their
// type's own `serialize`, non-null checked. Where graphql-js would report an error, this throws
// Incomplete and graphql-js itself completes the answer (src/pipeline/fast-path/plugin.ts).
import type { Out } from './shape.js';

export class Incomplete extends Error {}

/** A cross-source field that failed holds its error: graphql-js reports it at its path. */
function failed(v: unknown): never | false {
  if (v instanceof Error) throw new Incomplete();
  return false;
}

type Check = (value: unknown) => boolean;

const checks = new WeakMap<Out, Check>();

/**
 * True when `value` completes to itself: every object holds exactly the selected keys in order and
 * every leaf serializes to the value it is. Then the database's JSON text is the answer as it is.
 * The check of each shape is compiled once into closures (it runs on every value of every row).
 */
export function completesToItself(out: Out, value: unknown): boolean {
  return checkOf(out)(value);
}

function checkOf(out: Out): Check {
  let c = checks.get(out);
  if (!c) checks.set(out, (c = compileCheck(out)));
  return c;
}

const GRAPHQL_MIN_INT = -2147483648;
const GRAPHQL_MAX_INT = 2147483647;

/** Values a built-in scalar serializes to themselves, tested without calling `serialize`. */
const UNCHANGED: Readonly<Record<string, (v: unknown) => boolean>> = {
  String: (v) => typeof v === 'string',
  ID: (v) => typeof v === 'string',
  Boolean: (v) => typeof v === 'boolean',
  Float: (v) => typeof v === 'number' && Number.isFinite(v),
  Int: (v) => typeof v === 'number' && Number.isInteger(v) && v >= GRAPHQL_MIN_INT && v <= GRAPHQL_MAX_INT,
};

function compileCheck(out: Out): Check {
  switch (out.kind) {
    case 'non_null': {
      const of = checkOf(out.of);
      return (v) => {
        if (v === null || v === undefined) throw new Incomplete();
        return of(v);
      };
    }
    case 'list': {
      const of = checkOf(out.of);
      return (v) => {
        if (v === null || v === undefined) return v === null;
        if (!Array.isArray(v)) throw new Incomplete();
        let same = true;
        for (let i = 0; i < v.length; i++) if (!of(v[i])) same = false;
        return same;
      };
    }
    case 'leaf': {
      const type = out.type;
      const unchanged = UNCHANGED[type.name];
      return (v) => {
        if (v === null || v === undefined) return v === null;
        if (unchanged?.(v)) return true;
        failed(v);
        const s = type.serialize(v);
        if (s === null || s === undefined) throw new Incomplete();
        return s === v;
      };
    }
    case 'object': {
      const fields = out.fields.map((f) => ({ key: f.key, name: f.name, typename: f.typename, check: checkOf(f.out) }));
      const keys = out.keys;
      return (v) => {
        if (v === null || v === undefined) return v === null;
        if (typeof v !== 'object' || Array.isArray(v) || failed(v)) {
          completes(out, v); // throws where graphql-js reports an error
          return false;
        }
        const row = v as Record<string, unknown>;
        let same = true;
        let i = 0;
        for (const k in row) if (k !== keys[i++]) same = false;
        if (i !== keys.length) same = false;
        for (const f of fields) {
          const x = row[f.key];
          if (f.typename !== undefined) {
            if (x !== f.typename) same = false;
          } else if (x === undefined) {
            same = false;
            f.check(row[f.name]);
          } else if (!f.check(x)) same = false;
        }
        return same;
      };
    }
  }
}

/** The completed value of `value` (throws Incomplete where graphql-js reports an error). */
export function complete(out: Out, value: unknown): unknown {
  switch (out.kind) {
    case 'non_null': {
      const v = complete(out.of, value);
      if (v === null) throw new Incomplete();
      return v;
    }
    case 'list':
      if (value === null || value === undefined) return null;
      if (!Array.isArray(value)) throw new Incomplete();
      return value.map((item) => complete(out.of, item));
    case 'leaf': {
      if (value === null || value === undefined) return null;
      failed(value);
      const s = out.type.serialize(value);
      if (s === null || s === undefined) throw new Incomplete();
      return s;
    }
    case 'object':
      return completes(out, value);
  }
}

function completes(out: Extract<Out, { kind: 'object' }>, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  failed(value);
  const row = typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  const result: Record<string, unknown> = {};
  for (const f of out.fields) {
    if (f.typename !== undefined) result[f.key] = f.typename;
    else {
      const v = row?.[f.key];
      result[f.key] = complete(f.out, v === undefined ? row?.[f.name] : v);
    }
  }
  return result;
}
