// `npm run schema:diff` (issue 20 item 6): the compiled CLI, run as CI runs it, on catalogs changed
// in a breaking and in a safe way against the committed schema.graphql.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The repository's catalogs, with `edit` applied to the shop schema (the DuckDB file goes to a temp dir). */
function catalogs(edit: (sdl: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-schema-diff-'));
  cpSync(join(ROOT, 'catalogs'), dir, { recursive: true });
  const schema = join(dir, 'shop', 'schema.graphql');
  writeFileSync(schema, edit(readFileSync(schema, 'utf8')));
  const source = join(dir, 'shop', 'source.yaml');
  writeFileSync(source, readFileSync(source, 'utf8').replace(/^path: .*$/m, `path: ${join(dir, 'shop.duckdb')}`));
  return dir;
}

function schemaDiff(dir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['dist/codegen/schema-diff.js', ...args], { cwd: ROOT, env: { ...process.env, CATALOGS_DIR: dir }, encoding: 'utf8' });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

const customers = /(type customers @table\(name: "customers"\) \{\n  id: Int! @pk\n  name: String!\n)  email: String\n/;

it('a removed field is breaking: listed, and the exit code is 1 unless --allow-breaking', () => {
  const dir = catalogs((sdl) => {
    expect(sdl).toMatch(customers);
    return sdl.replace(customers, '$1');
  });
  const r = schemaDiff(dir);
  expect(r.status).toBe(1);
  expect(r.out).toMatch(/^breaking \(\d+\)$/m);
  expect(r.out).toContain("Field 'email' was removed from object type 'shop_customers'");
  expect(r.out).toMatch(/^safe \(0\)$/m);
  expect(r.err).toMatch(/breaking changes?; .*--allow-breaking/);
  const allowed = schemaDiff(dir, '--allow-breaking', '--json');
  expect(allowed.status).toBe(0);
  const json = JSON.parse(allowed.out);
  expect(json.breaking).toContainEqual(expect.objectContaining({ type: 'FIELD_REMOVED', path: 'shop_customers.email' }));
});

it('an added nullable field is safe: listed, exit 0', () => {
  const dir = catalogs((sdl) => sdl.replace(customers, '$1  email: String\n  phone: String\n'));
  const r = schemaDiff(dir);
  expect(r.status).toBe(0);
  expect(r.out).toMatch(/^breaking \(0\)$/m);
  expect(r.out).toContain("Field 'phone' was added to object type 'shop_customers'");
});

it('an unchanged catalog has no changes; a bad option is named', () => {
  const same = schemaDiff(join(ROOT, 'catalogs'));
  expect(same.status).toBe(0);
  expect(same.out).toMatch(/breaking \(0\)\ndangerous \(0\)\nsafe \(0\)/);
  const bad = schemaDiff(join(ROOT, 'catalogs'), '--bse', 'x');
  expect(bad.status).toBe(2);
  expect(bad.err).toContain('unknown option --bse');
});
