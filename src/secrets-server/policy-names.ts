// The words policies are written in (seed 002 "Principals" and "Verbs"): the configuration checks
// them and the policy engine reads them, so they sit below both.

export const VERBS = ['use', 'create', 'update', 'delete', 'annotate', 'grant'] as const;
export type Verb = (typeof VERBS)[number];
export const MANAGEMENT_VERBS: readonly Verb[] = ['create', 'update', 'delete', 'annotate', 'grant'];

export function isPrincipal(p: string): boolean {
  const m = /^(subject|role|group|client):(.+)$/s.exec(p);
  if (!m || m[2] === undefined) return false;
  if (m[1] === 'subject') return /^.+\|.+$/s.test(m[2]);
  return true;
}
