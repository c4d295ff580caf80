// Every example of README.md and docs/ marked runnable runs against a fresh server and answers what
// the page shows (scripts/docs-check.mjs; docs/operations.md "Documented examples"). One test per
// example, so `npm test` (and CI) names the page and line of one that no longer answers as shown.
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import { Servers, allExamples, difference, examples, run, verdict } from '../../scripts/docs-check.mjs';

type Example = { kind: string; at: string; page: string; setup: string; title: string };
const all = allExamples() as Example[];
const servers = new Servers(all);

afterAll(() => servers.stop(), 60_000);

describe('documented examples', () => {
  const pages = [...new Set(all.filter((e) => e.kind === 'run').map((e) => e.page))];
  for (const page of pages) {
    describe(page, () => {
      for (const e of all.filter((x) => x.kind === 'run' && x.page === page)) {
        it(`${e.at} [${e.setup}] ${e.title}`, async () => {
          const problem = verdict(e, await run(e, await servers.get(e.setup))) as string;
          expect(problem).toBe('');
        }, 150_000);
      }
    });
  }
});

describe('the checker', () => {
  it('finds a difference in the data, and lets <varies> match any value', () => {
    expect(difference({ data: { a: [1, 2] } }, { data: { a: [1, 3] } })).toBe('.data.a[1]: expected 2, got 3');
    expect(difference({ data: { id: '<varies>', n: 1 } }, { data: { id: 'x9', n: 1 } })).toBe('');
    expect(difference({ data: { n: 1 } }, { data: { n: 1, extra: 2 } })).toContain('extra');
  });

  it('fails an answer with errors that the page does not show, and compares only the keys an error shows', () => {
    const e = { status: 200, answer: { data: { x: 1 } } };
    expect(verdict(e, { status: 200, body: { data: { x: 1 }, extensions: {} } })).toBe('');
    expect(verdict(e, { status: 200, body: { data: { x: 1 }, errors: [{ message: 'boom' }] } })).toContain('boom');
    const shown = { status: 200, answer: { errors: [{ message: 'no' }] } };
    expect(verdict(shown, { status: 200, body: { errors: [{ message: 'no', locations: [], extensions: { code: 'X' } }] } })).toBe('');
  });

  it('reads every marked page without a marker error', () => {
    expect(all.filter((e) => e.kind === 'run').length).toBeGreaterThan(10);
    expect(() => examples('README.md')).not.toThrow();
  });
});
