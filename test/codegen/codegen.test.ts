// Codegen (DESIGN.md §2): deterministic output, and the check that catches stale files.
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outputs, staleFiles, writeFiles } from '../../codegen/generate.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('codegen', () => {
  it('writes byte-identical files for the same catalogs', async () => {
    process.chdir(ROOT);
    const a = await outputs('./catalogs');
    const b = await outputs('./catalogs');
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [k, v] of a) expect(b.get(k)).toBe(v);
    expect([...a.keys()]).toEqual(expect.arrayContaining(['schema.graphql', 'src/generated/shop/catalog.json', 'src/generated/shop/types.ts', 'src/generated/shop/module.ts']));
  });

  it('the committed generated files are up to date', async () => {
    process.chdir(ROOT);
    expect(staleFiles(await outputs('./catalogs'), ROOT)).toEqual([]);
  });

  it('names a stale, a missing and a leftover file', async () => {
    process.chdir(ROOT);
    const files = await outputs('./catalogs');
    const dir = mkdtempSync(join(tmpdir(), 'svc-codegen-'));
    writeFiles(files, dir);
    expect(staleFiles(files, dir)).toEqual([]);
    writeFileSync(join(dir, 'src/generated/shop/types.ts'), `${readFileSync(join(dir, 'src/generated/shop/types.ts'), 'utf8')}// edited\n`);
    cpSync(join(dir, 'src/generated/shop/module.ts'), join(dir, 'src/generated/shop/extra.ts'));
    const changed = new Map(files);
    changed.set('src/generated/orders/types.ts', 'new');
    expect(staleFiles(changed, dir).sort()).toEqual([
      'missing: src/generated/orders/types.ts',
      'not generated from any catalog: src/generated/shop/extra.ts',
      'stale: src/generated/shop/types.ts',
    ]);
  });

  it('generates types and a typed client that follow the catalog', async () => {
    process.chdir(ROOT);
    const files = await outputs('./catalogs');
    const types = files.get('src/generated/shop/types.ts')!;
    // The schema map: leaves are their values, relations name their type, cardinality and arguments.
    expect(types).toContain('  shop_orders: {\n    id: number;\n    customer_id: number;\n    status: string;');
    expect(types).toContain("    customer: Obj<'shop_customers', 'one', { inner?: boolean }>;");
    expect(types).toContain("    total_after: LeafArgs<number | null, { percent: number }>;");
    // Filter, order and mutation input types, from the catalog.
    expect(types).toMatch(/export interface shop_orders_filter \{[^}]*\n  status\?: StringFilter \| null;/);
    expect(types).toMatch(/export interface shop_tags_mut_input_data \{\n  id\?: number \| null;\n  name\?: string \| null;/);
    const module = files.get('src/generated/shop/module.ts')!;
    expect(module).toContain('export class ShopClient extends TypedClient');
    // One method per root field of the source: each kind.
    for (const m of ['customers', 'customers_by_pk', 'products_by_sku', 'orders_aggregation', 'orders_bucket_aggregation', 'order_total', 'series', 'insert_tags', 'insert_tags_batch', 'update_tags', 'delete_tags']) {
      expect(module).toMatch(new RegExp(`\\n  ${m}[<(]`));
    }
    expect(module).toContain("customers_by_pk<const S extends Sel<'shop_customers'>>(select: In<'shop_customers', S>, args: { id: number }): Promise<Out<'shop_customers', S> | null>");
    expect(files.get('schema.graphql')).toContain('type shop_orders {');
  });

  it('compiles extension sources against the sources they extend, their fields in those clients', async () => {
    process.chdir(ROOT);
    const files = await outputs('./examples/four-sources/catalogs');
    expect(JSON.parse(files.get('src/generated/links/catalog.json')!)).toBeTruthy();
    // No client of its own: the extension's relations and fields are in the clients of crm and sales.
    expect(files.has('src/generated/links/module.ts')).toBe(false);
    const crm = files.get('src/generated/crm/types.ts')!;
    expect(crm).toContain("    orders: Obj<'sales_orders', 'list'");
    expect(crm).toMatch(/    eur_rate: number \| null;/);
    expect(files.get('src/generated/sales/types.ts')).toContain("    product: Obj<'stock_products', 'one'");
  });

  it("keeps other catalogs' generated folders when generating a user's CATALOGS_DIR (prune only for the repository's own)", async () => {
    process.chdir(ROOT);
    const dir = mkdtempSync(join(tmpdir(), 'svc-codegen-'));
    writeFiles(await outputs('./catalogs'), dir);
    const mine = await outputs('./examples/four-sources/catalogs');
    writeFiles(mine, dir, false);
    expect(existsSync(join(dir, 'src/generated/shop/module.ts'))).toBe(true);
    expect(existsSync(join(dir, 'src/generated/crm/module.ts'))).toBe(true);
    expect(staleFiles(mine, dir, false)).toEqual([]);
    writeFiles(mine, dir, true);
    expect(existsSync(join(dir, 'src/generated/shop/module.ts'))).toBe(false);
  });
});
