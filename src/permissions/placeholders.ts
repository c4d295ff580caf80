// `[$auth.<name>]` in permission filters and data (SPEC §7). A string that is exactly one
// placeholder becomes the variable's value with its JSON type (so `[$auth.user_id_int]` stays a
// number); placeholders inside longer strings are replaced as text. Unknown names are null.
const WHOLE = /^\[\$auth\.([A-Za-z_][A-Za-z0-9_]*)\]$/;
const PART = /\[\$auth\.([A-Za-z_][A-Za-z0-9_]*)\]/g;

export function substitute(value: unknown, vars: Readonly<Record<string, unknown>>): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return vars[whole[1]!] ?? null;
    return value.replace(PART, (_m, name: string) => String(vars[name] ?? ''));
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)]));
  }
  return value;
}
