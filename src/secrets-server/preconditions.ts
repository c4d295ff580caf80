import { problem } from './problem.js';

// If-Match and If-None-Match of RFC 9110 §13.1: `*` or a list of entity tags; If-Match compares
// strongly (a weak tag never matches), If-None-Match weakly.

export type TagList = { any: true } | { any: false; tags: { weak: boolean; opaque: string }[] };

export function etagOf(version: number): string {
  return `"${version}"`;
}

/** undefined when the header is absent; a malformed header fails the precondition rather than being ignored. */
export function parseTagList(header: string | string[] | undefined, name: string): TagList | undefined {
  if (header === undefined) return undefined;
  const text = (Array.isArray(header) ? header.join(',') : header).trim();
  if (text === '*') return { any: true };
  const tags: { weak: boolean; opaque: string }[] = [];
  // Elements are separated by commas with optional whitespace; empty elements are allowed (RFC 9110 §5.6.1).
  const re = /\s*(?:(W\/)?("[\x21\x23-\x7e\x80-\xff]*"))?\s*(,|$)/gy;
  let pos = 0;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m || m[0] === '') throw problem('precondition_failed', `${name} is not a list of entity tags`);
    if (m[2] !== undefined) tags.push({ weak: m[1] !== undefined, opaque: m[2] });
    pos = re.lastIndex;
  }
  if (tags.length === 0) throw problem('precondition_failed', `${name} is not a list of entity tags`);
  return { any: false, tags };
}

export function strongMatch(list: TagList, current: string): boolean {
  return list.any || list.tags.some((t) => !t.weak && t.opaque === current);
}

export function weakMatch(list: TagList, current: string): boolean {
  return list.any || list.tags.some((t) => t.opaque === current);
}

/** The header's parsed value, read once per request. */
export interface Conditions {
  ifMatch?: TagList;
  ifNoneMatch?: TagList;
}

export function readConditions(headers: Record<string, string | string[] | undefined>): Conditions {
  const ifMatch = parseTagList(headers['if-match'], 'If-Match');
  const ifNoneMatch = parseTagList(headers['if-none-match'], 'If-None-Match');
  return { ...(ifMatch ? { ifMatch } : {}), ...(ifNoneMatch ? { ifNoneMatch } : {}) };
}

/** Preconditions on an existing entry (SPEC §15 write checks, after the verb check). */
export function checkExisting(c: Conditions, version: number): void {
  const tag = etagOf(version);
  if (c.ifNoneMatch && weakMatch(c.ifNoneMatch, tag)) throw problem('precondition_failed', 'the entry exists and matches If-None-Match');
  if (c.ifMatch && !strongMatch(c.ifMatch, tag)) throw problem('precondition_failed', 'If-Match does not match the current ETag');
}

/** Preconditions on a missing entry: any If-Match fails, since there is no current representation. */
export function checkMissing(c: Conditions): void {
  if (c.ifMatch) throw problem('precondition_failed', 'If-Match was given but the entry does not exist');
}
