// Secrets are not data (issue 14 item 2): API keys are stored as hashes, and passwords inside
// connection strings are shown as `***` whenever they are read back.
import { createHash } from 'node:crypto';

const HASHED = /^sha256:[0-9a-f]{64}$/;

/** The hash a presented key is looked up by. Always computed: a stored hash is never a key itself. */
export function hashSecret(key: string): string {
  return `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * What is stored for a key written by a client: its hash. A value already in the hash form is kept,
 * so an operator can provision a key without ever sending it.
 */
export function storedSecret(key: string): string {
  return HASHED.test(key) ? key : hashSecret(key);
}

/**
 * A connection string or URL with its password replaced by `***`:
 * `postgres://app:pw@db/sales` -> `postgres://app:***@db/sales`, and `password=pw` pairs
 * (key=value connection strings, query parameters), and any parameter named like a credential
 * (`x-svc-token`, `api_key`, `access_token`) likewise. `[$ENV_NAME]` placeholders are kept,
 * since they are the documented way to keep a password out of the core database.
 */
export function maskSecret(text: string): string {
  return text
    .replace(/(^|[^A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/:@\s]*:)([^@\s]*)@/g, (m, pre: string, head: string, pw: string) => (isPlaceholder(pw) ? m : `${pre}${head}***@`))
    // Any parameter whose name ends in a credential word: `password=`, an http source's
    // `x-svc-token=` / `x-svc-secrets-token=` (hugr's `x-hugr-*` too), `api_key=`, `access_token=`, `client_secret=`.
    .replace(/((?:^|[?&;\s])[A-Za-z0-9_.-]*(?:password|pwd|passwd|secret|token|key|credential|signature)=)([^&;\s]*)/gi, (m, head: string, pw: string) => (isPlaceholder(pw) || !pw ? m : `${head}***`))
    // Credentials inside a JSON object in the text (an http source's x-svc-security), raw or URL-encoded.
    .replace(/("(?:api_key|password|client_secret|token|access_token)"\s*:\s*")((?:[^"\\]|\\.)*)(")/gi, (m, head: string, v: string, tail: string) => (isPlaceholder(v) || !v ? m : `${head}***${tail}`))
    .replace(/(%22(?:api_key|password|client_secret|token|access_token)%22(?:%20|\+)*%3A(?:%20|\+)*%22)(.*?)(%22)/gi, (m, head: string, v: string, tail: string) => (isPlaceholder(v.replace(/%5B/gi, '[').replace(/%5D/gi, ']').replace(/%24/g, '$')) || !v ? m : `${head}***${tail}`));
}

const isPlaceholder = (v: string): boolean => /^\[\$[A-Za-z_][A-Za-z0-9_]*\]$/.test(v);
