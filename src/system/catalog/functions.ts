// Schema management mutations of seed 001 (`_schema_*`), used by summarizers, embedding indexers
// and admin tools. Descriptions written here are stored as summarized: introspection and the
// core.catalog views show them, and reloading the catalog keeps them.
import type { RequestContext } from '../../executor/request-context.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { FunctionHandler } from '../../pipeline/resolver-deps.js';
import type { SystemFunction } from '../../schema/surface.js';
import type { SourceRegistry } from '../../sources/registry.js';
import type { Embedder } from './embedder.js';
import type { CatalogStore, DescribedKind } from './store.js';

const DESC = 'description: String!, long_description: String!';

export const SCHEMA_FUNCTIONS: readonly SystemFunction[] = [
  { module: 'core', mutation: true, name: '_schema_update_type_desc', args: `(name: String!, ${DESC})`, returns: 'OperationResult', handler: 'schema_update_type_desc', description: 'Sets the description of a type (marks it summarized)' },
  { module: 'core', mutation: true, name: '_schema_update_field_desc', args: `(type_name: String!, name: String!, ${DESC})`, returns: 'OperationResult', handler: 'schema_update_field_desc', description: 'Sets the description of a field (marks it summarized)' },
  { module: 'core', mutation: true, name: '_schema_update_module_desc', args: `(name: String!, ${DESC})`, returns: 'OperationResult', handler: 'schema_update_module_desc', description: 'Sets the description of a module' },
  { module: 'core', mutation: true, name: '_schema_update_catalog_desc', args: `(name: String!, ${DESC})`, returns: 'OperationResult', handler: 'schema_update_catalog_desc', description: 'Sets the description of a catalog' },
  { module: 'core', mutation: true, name: '_schema_reset_summarized', args: '(name: String = "", scope: String = "all")', returns: 'OperationResult', handler: 'schema_reset_summarized', description: "Forgets written descriptions of a catalog (empty: all) so the catalog's own return; scope all, catalog or type" },
  { module: 'core', mutation: true, name: '_schema_reindex', args: '(name: String = "", batch_size: Int = 50)', returns: 'OperationResult', handler: 'schema_reindex', description: 'Recomputes the embeddings of a catalog (empty: all) through EMBEDDER_URL' },
  { module: 'core', mutation: true, name: '_schema_hard_remove', args: '(name: String!)', returns: 'OperationResult', handler: 'schema_hard_remove', description: 'Deletes a catalog and its schema rows; refused while the catalog is loaded' },
  { module: 'core', mutation: true, name: '_schema_version_clean', args: '(name: String!)', returns: 'OperationResult', handler: 'schema_version_clean', description: 'Resets the stored version of a catalog so it is written again at its next load' },
];

export interface SchemaFunctionDeps {
  readonly store: CatalogStore;
  readonly registry: SourceRegistry;
  /** Rebuilds the served schema and stores it (after descriptions changed). */
  readonly refresh: (force?: boolean) => Promise<void>;
  /** EMBEDDER_URL's client, when set. */
  readonly embedder?: Embedder;
}

const str = (v: unknown): string => String(v ?? '');

export function schemaHandlers(deps: SchemaFunctionDeps): Record<string, FunctionHandler> {
  const { store } = deps;
  /**
   * One `_schema_update_*` call: written in the request's transaction on the core database, so the
   * calls of one request are kept or dropped together (issue 32: the fifth failing keeps none of the
   * first four); the served descriptions and the schema change once the request has committed.
   */
  const describe = async (ctx: RequestContext, kind: DescribedKind, key: readonly string[], label: string, a: Record<string, unknown>) => {
    const [description, long] = [str(a.description), str(a.long_description)];
    const c = await ctx.transactions.connection(store.runtime);
    const n = await store.describe(c, kind, key, description, long);
    if (!n) throw new PublicError(ErrorCode.NotFound, `unknown ${label}`);
    ctx.transactions.afterCommit(`describe:${kind}:${key.join('.')}`, () => store.remember(kind, key, description, long));
    ctx.transactions.afterCommit('schema-refresh', () => deps.refresh());
    return { success: true, affected_rows: n, message: `description of ${label} updated` };
  };
  return {
    schema_update_type_desc: (a, ctx) => describe(ctx, 'type', [str(a.name)], `type "${str(a.name)}"`, a),
    schema_update_field_desc: (a, ctx) => describe(ctx, 'field', [str(a.type_name), str(a.name)], `field "${str(a.type_name)}.${str(a.name)}"`, a),
    schema_update_module_desc: (a, ctx) => describe(ctx, 'module', [str(a.name)], `module "${str(a.name)}"`, a),
    schema_update_catalog_desc: (a, ctx) => describe(ctx, 'catalog', [str(a.name)], `catalog "${str(a.name)}"`, a),
    schema_reset_summarized: async (a) => {
      const scope = str(a.scope) || 'all';
      if (!['all', 'catalog', 'type'].includes(scope)) throw new PublicError(ErrorCode.BadUserInput, `scope must be all, catalog or type, not "${scope}"`);
      const n = await store.resetSummarized(str(a.name), scope as 'all' | 'catalog' | 'type');
      await deps.refresh(true);
      return { success: true, affected_rows: n, message: `${n} descriptions reset` };
    },
    schema_reindex: async (a) => {
      if (!deps.embedder) throw new PublicError(ErrorCode.BadUserInput, 'embeddings are not configured: set EMBEDDER_URL');
      const batch = Number(a.batch_size ?? 50);
      if (!Number.isInteger(batch) || batch < 1 || batch > 2048) throw new PublicError(ErrorCode.BadUserInput, `batch_size must be from 1 to 2048, not ${String(a.batch_size)}`);
      await store.clearVectors(str(a.name));
      const n = await store.embedMissing(deps.embedder, batch);
      return { success: true, affected_rows: n, message: `${n} embeddings computed` };
    },
    schema_hard_remove: async (a) => {
      const name = str(a.name);
      if (deps.registry.get(name)) throw new PublicError(ErrorCode.BadUserInput, `catalog "${name}" is loaded; unload it before removing it`);
      const n = await store.hardRemove(name);
      if (!n) throw new PublicError(ErrorCode.NotFound, `unknown catalog "${name}"`);
      return { success: true, affected_rows: n, message: `catalog "${name}" removed` };
    },
    schema_version_clean: async (a) => {
      const n = await store.cleanVersion(str(a.name));
      if (!n) throw new PublicError(ErrorCode.NotFound, `unknown catalog "${str(a.name)}"`);
      return { success: true, affected_rows: n, message: `catalog "${str(a.name)}" will be written again at its next load` };
    },
  };
}
