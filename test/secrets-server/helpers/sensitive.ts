// Everything that must never appear in a log line, collected as tests create it, and every log line
// the servers of this test file wrote. Each test file ends with a scan of one against the other.

export const sensitive = new Set<string>();
export const logLines: string[] = [];

export function markSensitive(value: string): string {
  if (value.length >= 8) sensitive.add(value);
  // A JWT's signature or payload alone would also be a leak.
  for (const part of value.split('.')) if (part.length >= 16) sensitive.add(part);
  return value;
}

let n = 0;
/** A distinctive secret value, remembered for the log scan. */
export function secretValue(label = 'v'): string {
  n += 1;
  return markSensitive(`sv-${label}-${n}-${Math.random().toString(36).slice(2, 12)}`);
}

export function leaks(): { line: string; value: string }[] {
  const out: { line: string; value: string }[] = [];
  for (const line of logLines) for (const value of sensitive) if (line.includes(value)) out.push({ line, value });
  return out;
}
