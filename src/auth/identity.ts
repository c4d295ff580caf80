// Who makes a request (SPEC §6): what every auth provider produces and every later step reads.

export interface Identity {
  readonly role: string;
  readonly userId: string | null;
  readonly userName: string;
  readonly authType: string;
  /** Issuer (`iss`) for JWT and OIDC callers. */
  readonly provider?: string;
  /** `[$auth.<name>]` variables beyond the standard ones (custom claims). */
  readonly claims?: Readonly<Record<string, unknown>>;
  readonly impersonatedBy?: { readonly role: string; readonly userId: string; readonly userName: string };
}
