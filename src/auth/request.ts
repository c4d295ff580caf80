// What a provider sees of a request: headers by name, the Bearer token and cookies (SPEC §6,
// seed 000 "Request headers"). Parsing lives here once so every provider reads them the same way.

export type RawHeaders = Readonly<Record<string, string | string[] | undefined>>;

export class AuthRequest {
  /** The token of `Authorization: Bearer <token>`, if that is the scheme used. */
  readonly bearer: string | undefined;
  /** True when an Authorization header uses some other scheme (Basic, Digest, ...). */
  readonly otherScheme: boolean;
  private cookies?: Map<string, string>;

  constructor(private readonly raw: RawHeaders) {
    const auth = this.header('authorization');
    const m = auth?.match(/^Bearer[ \t]+(\S+)[ \t]*$/i);
    this.bearer = m?.[1];
    this.otherScheme = auth !== undefined && !m;
  }

  /** A header by case-insensitive name; the first value when repeated. Empty counts as absent. */
  header(name: string): string | undefined {
    const v = this.raw[name.toLowerCase()];
    const first = Array.isArray(v) ? v[0] : v;
    return first === undefined || first === '' ? undefined : first;
  }

  cookie(name: string): string | undefined {
    this.cookies ??= parseCookies(this.header('cookie'));
    const v = this.cookies.get(name);
    return v === '' ? undefined : v;
  }
}

function parseCookies(text: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (text ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const name = part.slice(0, i).trim();
    let value = part.slice(i + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // A value that is not percent-encoded is used as it is.
    }
    // The first occurrence wins, as browsers send the most specific path first.
    if (!out.has(name)) out.set(name, value);
  }
  return out;
}
