import { problem } from './problem.js';
import { classify, legacyGenerator } from './mint.js';
import { refuseUnknown, requireObject } from './request-body.js';
import type { Namespace, Param } from './store.js';

// Validation of names and of the PUT and PATCH bodies of SPEC §15; each refusal is 422 `invalid_secret`
// and names the field or parameter, never a value.

export const MAX_NAME_CODE_POINTS = 200;

/** 1–200 code points, no whitespace at either edge (Unicode, so NBSP too), no control characters. */
export function checkName(name: string, what = 'name'): string {
  const n = [...name].length;
  if (n < 1 || n > MAX_NAME_CODE_POINTS) throw problem('invalid_secret', `the ${what} must have 1 to ${MAX_NAME_CODE_POINTS} characters`);
  if (/^[\s\u180e\u200b]|[\s\u180e\u200b]$/u.test(name)) throw problem('invalid_secret', `the ${what} must not start or end with whitespace`);
  if (/\p{Cc}/u.test(name)) throw problem('invalid_secret', `the ${what} must not contain control characters`);
  if (/\p{Cs}/u.test(name)) throw problem('invalid_secret', `the ${what} must be valid Unicode`);
  return name;
}

/** A path segment percent-decoded; bytes that are not UTF-8 make a name that cannot exist. */
export function decodeSegment(raw: string, what = 'name'): string {
  try {
    return checkName(decodeURIComponent(raw), what);
  } catch (err) {
    if (err instanceof URIError) throw problem('invalid_secret', `the ${what} is not valid percent-encoded UTF-8`);
    throw err;
  }
}

export interface EntryInput {
  type: string;
  provider: string;
  scope: string[];
  params: Record<string, Param>;
  redact_keys: string[];
  comment?: string;
}

export interface InputContext {
  ns: Namespace;
  /** audiences of this service; an exchange for them is refused (seed 002 rule 6) */
  ownAudiences: string[];
}

export function parseEntryInput(body: unknown, ctx: InputContext): EntryInput {
  const o = requireObject(body, 'the body');
  refuseUnknown(o, ['type', 'provider', 'scope', 'params', 'redact_keys', 'comment'], 'the body');
  const type = text(o.type, 'type');
  const provider = text(o.provider, 'provider');
  const scope = texts(o.scope, 'scope');
  const redact_keys = texts(o.redact_keys, 'redact_keys');
  const params = parseParams(o.params, ctx);
  if (ctx.ns === 'secrets') checkLegacy(type, provider, params, ctx);
  const input: EntryInput = { type, provider, scope, params, redact_keys };
  if (o.comment !== undefined) {
    if (typeof o.comment !== 'string') throw problem('invalid_secret', 'comment must be a string');
    input.comment = o.comment;
  }
  return input;
}

/** PATCH `{comment}`: a string, or null to clear it. */
export function parseAnnotation(body: unknown): string | null {
  const o = requireObject(body, 'the body');
  refuseUnknown(o, ['comment'], 'the body');
  if (!('comment' in o)) throw problem('invalid_secret', 'the body must have comment');
  if (o.comment !== null && typeof o.comment !== 'string') throw problem('invalid_secret', 'comment must be a string or null');
  return o.comment;
}

/** Grant body `{principal, verbs}`: `use` to a role or group, nothing else (SPEC §15 Verbs). */
export function parseGrantInput(body: unknown): { principal: string; verbs: string[] } {
  const o = requireObject(body, 'the body');
  refuseUnknown(o, ['principal', 'verbs'], 'the body');
  const principal = text(o.principal, 'principal');
  if (!/^(role|group):./s.test(principal)) throw problem('invalid_secret', 'a grant names a role: or group: principal');
  if (!Array.isArray(o.verbs) || o.verbs.length !== 1 || o.verbs[0] !== 'use') {
    throw problem('invalid_secret', 'a grant carries exactly the verbs ["use"]; management belongs to policy.admins');
  }
  return { principal, verbs: ['use'] };
}

function parseParams(v: unknown, ctx: InputContext): Record<string, Param> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw problem('invalid_secret', 'params must be an object');
  const out: [string, Param][] = [];
  for (const [key, value] of Object.entries(v)) {
    const where = `parameter ${JSON.stringify(key)}`;
    if (key === '') throw problem('invalid_secret', 'a parameter name is empty');
    if (typeof value === 'string') {
      checkVarchar(value, where, ctx);
      out.push([key, value]);
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw problem('invalid_secret', `${where} must be a string or {type, value}`);
    }
    const typed = value as Record<string, unknown>;
    refuseUnknown(typed, ['type', 'value'], where);
    const t = text(typed.type, `${where} type`);
    if (typed.value === null || typed.value === undefined) throw problem('invalid_secret', `${where} has a null value`);
    // Typed values are literals, never generators nor unescaped (rule 7).
    out.push([key, { type: t, value: typed.value }]);
  }
  return Object.fromEntries(out);
}

function checkVarchar(value: string, where: string, ctx: InputContext): void {
  const c = classify(value);
  if ('literal' in c) return;
  if ('error' in c) throw problem('invalid_secret', `${where} ${c.error}`);
  if (ctx.ns === 'variables') throw problem('invalid_secret', `${where} holds a generator; generators are for secrets, write mint++ for a literal`);
  if (c.generator.kind === 'exchange' && ctx.ownAudiences.includes(c.generator.audience)) {
    throw problem('invalid_secret', `${where} exchanges for this service's own audience`);
  }
}

function checkLegacy(type: string, provider: string, params: Record<string, Param>, ctx: InputContext): void {
  const legacy = legacyGenerator(type, provider, params);
  if (provider === 'token_exchange' && (type === 'http' || type === 'quack') && !legacy) {
    throw problem('invalid_secret', 'provider token_exchange needs the VARCHAR parameter "audience"');
  }
  if (legacy && legacy.generator.kind === 'exchange' && ctx.ownAudiences.includes(legacy.generator.audience)) {
    throw problem('invalid_secret', 'parameter "audience" exchanges for this service\'s own audience');
  }
}

function text(v: unknown, field: string): string {
  if (typeof v !== 'string' || v === '') throw problem('invalid_secret', `${field} must be a non-empty string`);
  return v;
}

function texts(v: unknown, field: string): string[] {
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw problem('invalid_secret', `${field} must be a list of strings`);
  return v as string[];
}
