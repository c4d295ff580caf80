// System functions of the `core` module (seed 001, SPEC §11) and their handlers.
import type { RequestContext } from '../executor/request-context.js';
import type { FunctionHandler } from '../pipeline/resolver-deps.js';
import type { SystemFunction } from '../schema/surface.js';
import type { SourceRegistry } from '../sources/registry.js';
import type { Lifecycle } from './lifecycle.js';
import type { Invalidation } from '../cache/invalidation.js';
import { httpRequest } from './http-request.js';

export const SYSTEM_FUNCTIONS: readonly SystemFunction[] = [
  { module: 'core', mutation: true, name: 'load_data_source', args: '(name: String!)', returns: 'OperationResult', handler: 'load_data_source', description: 'Loads or reloads a data source and serves its catalog' },
  { module: 'core', mutation: true, name: 'unload_data_source', args: '(name: String!)', returns: 'OperationResult', handler: 'unload_data_source', description: 'Stops serving a data source; its registration is kept' },
  { module: 'core', mutation: true, name: 'checkpoint', args: '(name: String = "")', returns: 'OperationResult', handler: 'checkpoint', description: 'Flushes the write-ahead log of a DuckDB source (empty: the core database)' },
  { module: 'core.cache', mutation: true, name: 'invalidate', args: '(tags: [String!])', returns: 'OperationResult', handler: 'cache_invalidate', description: 'Drops cached results carrying any of the tags (all of them without tags), in every process sharing the cache' },
  // hugr declares it on `Function` (its cache page calls it from queries too): the same call, admin only as every core function.
  { module: 'core.cache', mutation: false, name: 'invalidate', args: '(tags: [String!])', returns: 'OperationResult', handler: 'cache_invalidate', description: 'Drops cached results carrying any of the tags (all of them without tags), in every process sharing the cache' },
  { module: 'core', mutation: false, name: 'data_source_status', args: '(name: String!)', returns: 'String', handler: 'data_source_status', description: 'Status text of a data source: loaded, unloaded, or failed with the reason' },
  {
    module: 'core', mutation: false, name: 'http_data_source_request_scalar',
    args: '(source: String!, path: String!, method: String = "GET", headers: JSON, parameters: JSON, body: JSON, jq: String = "")',
    returns: 'String', handler: 'http_data_source_request_scalar',
    description: "Sends a request to an http data source with its credentials and returns the answer's JSON text (after the jq program); admin only unless a role is granted this field",
  },
  { module: 'core', mutation: false, name: 'describe_data_source_schema', args: '(name: String!, self: Boolean = false, log: Boolean = false)', returns: 'String', handler: 'describe_data_source_schema', description: "A data source's catalog SDL as written (self: the catalog its database describes)" },
];

export interface FunctionDeps {
  readonly lifecycle: Lifecycle;
  readonly registry: SourceRegistry;
  /** Tag invalidation of the result cache and the caches kept beside it. */
  readonly invalidation: Invalidation;
}

export function systemHandlers(deps: FunctionDeps): Record<string, FunctionHandler> {
  const name = (args: Record<string, unknown>) => String(args.name ?? '');
  return {
    load_data_source: (args) => deps.lifecycle.load(name(args)),
    unload_data_source: (args) => deps.lifecycle.unload(name(args)),
    checkpoint: async (args, _ctx: RequestContext) => {
      const source = name(args) || 'core';
      const loaded = deps.registry.get(source);
      if (!loaded) return { success: false, message: `data source "${source}" is not loaded` };
      // DuckDB flushes its write-ahead log into the file; PostgreSQL runs a checkpoint of the server
      // (superuser or pg_checkpoint), and a refusal is reported, not thrown.
      try {
        await loaded.runtime.exec('CHECKPOINT');
      } catch (e) {
        return { success: false, message: `checkpoint of "${source}" failed: ${(e as Error).message}` };
      }
      return { success: true, message: `checkpoint of "${source}" done` };
    },
    cache_invalidate: async (args) => {
      const tags = (args.tags as string[] | null | undefined) ?? undefined;
      const n = await deps.invalidation.invalidate(tags);
      return { success: true, affected_rows: n, message: tags?.length ? `invalidated tags ${tags.join(', ')}` : 'invalidated everything' };
    },
    data_source_status: (args) => deps.lifecycle.status(name(args)),
    http_data_source_request_scalar: (args) => httpRequest(deps.registry, args),
    describe_data_source_schema: async (args) => {
      // self: the catalog the source derives from its database (self_defined), whether or not it uses it.
      if (args.self) return deps.lifecycle.selfDefinedSdl(name(args), !!args.log);
      const loaded = deps.registry.get(name(args));
      const status = deps.registry.status(name(args));
      if (!loaded) return status ? `data source "${name(args)}" is ${status.state}${args.log ? `\n# ${status.log.join('\n# ')}` : ''}` : `unknown data source "${name(args)}"`;
      // The source's catalog (hugr's answer), not svc's generated API; an extension's is what it adds to other sources.
      const sdl = loaded.catalog.extension
        ? loaded.catalog.extension.files.map((f) => `# ${f.file}\n${f.text}`).join('\n')
        : await deps.lifecycle.writtenCatalog(name(args));
      return args.log ? `${sdl}\n# compilation log\n${(status?.log ?? []).map((l) => `# ${l}`).join('\n')}\n` : sdl;
    },
  };
}
