// `core.storage` operations (seed 001, SPEC §11): registering object storages and listing files.
// `ls` answers name, size and modification time from the listing; `content` is read only when
// selected (a thenable that starts the read when graphql-js awaits it), within a byte budget per call.
import type { FunctionHandler } from '../../pipeline/resolver-deps.js';
import type { SystemFunction } from '../../schema/surface.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { StorageFiles } from './files.js';
import { type StorageStore, storageOf } from './store.js';

export const STORAGE_TYPES_SDL = [
  `"A file listed by core.storage.ls."
type core_storage_ls {
  "The file's URL (scheme://bucket/key) or absolute local path"
  name: String!
  "The file's content as UTF-8 text (read when selected; 16 MiB per file, 64 MiB per call at most)"
  content: String!
  "Size in bytes"
  size: BigInt!
  last_modified: Timestamp
}`,
];

const REGISTER_ARGS =
  '(type: String!, name: String!, scope: String!, key: String!, secret: String!, region: String = "", endpoint: String!, use_ssl: Boolean! = true, url_style: String! = "path", url_compatibility: Boolean = false, kms_key_id: String = "", account_id: String = "")';

export const STORAGE_FUNCTIONS: readonly SystemFunction[] = [
  {
    module: 'core.storage', mutation: true, name: 'register_object_storage', args: REGISTER_ARGS, returns: 'OperationResult', handler: 'register_object_storage',
    description: 'Registers an object storage reached through the S3 API (s3, r2, gcs), or replaces the one of the same name; the secret is stored and never shown',
  },
  { module: 'core.storage', mutation: true, name: 'unregister_storage', args: '(name: String!)', returns: 'OperationResult', handler: 'unregister_storage', description: 'Removes a registered object storage' },
  {
    module: 'core.storage', mutation: false, query: true, name: 'ls', args: '(path: String!)', returns: '[core_storage_ls!]!', handler: 'storage_ls',
    description: 'Files of a path: scheme://bucket/key of a registered storage, or a local path inside STORAGE_LOCAL_PATHS; a file, a directory (not recursive) or a glob (*, **, ?, {a,b})',
  },
];

/** Bytes of file content one ls call returns at most, and per file. */
const MAX_CONTENT = 64 * 1024 * 1024;
const MAX_FILE_CONTENT = 16 * 1024 * 1024;

/** A value computed only if someone awaits it (graphql-js does, for the fields a query selects). */
function lazy<T>(make: () => Promise<T>): PromiseLike<T> {
  let p: Promise<T> | undefined;
  return { then: (ok, fail) => (p ??= make()).then(ok, fail) };
}

export interface StorageDeps {
  readonly storages: StorageStore;
  readonly files: StorageFiles;
  /** Writes are refused on a read-only core database. */
  readonly readOnly: boolean;
}

export function storageHandlers(deps: StorageDeps): Record<string, FunctionHandler> {
  const writable = () => {
    if (deps.readOnly) throw new PublicError(ErrorCode.ReadOnly, 'the core database is read-only (CORE_DB_READONLY): storages cannot be registered');
  };
  return {
    register_object_storage: async (a) => {
      writable();
      const s = storageOf(a);
      await deps.storages.upsert(s);
      return { success: true, affected_rows: 1, message: `object storage "${s.name}" registered for ${s.scope}` };
    },
    unregister_storage: async (a) => {
      writable();
      const n = await deps.storages.remove(String(a.name ?? ''));
      if (!n) throw new PublicError(ErrorCode.NotFound, `unknown object storage "${String(a.name ?? '')}"`);
      return { success: true, affected_rows: n, message: `object storage "${String(a.name)}" unregistered` };
    },
    storage_ls: async (a) => {
      const entries = await deps.files.list(String(a.path ?? ''));
      let budget = MAX_CONTENT;
      return entries.map((e) => ({
        name: e.name,
        size: e.size,
        last_modified: e.lastModified?.toISOString() ?? null,
        content: lazy(async () => {
          if (e.size > MAX_FILE_CONTENT) throw new PublicError(ErrorCode.BadUserInput, `"${e.name}" is ${e.size} bytes; ls shows the content of files up to ${MAX_FILE_CONTENT} bytes`);
          budget -= e.size;
          if (budget < 0) throw new PublicError(ErrorCode.BadUserInput, `the files of this ls hold more than ${MAX_CONTENT} bytes of content; narrow the path or leave out content`);
          return (await deps.files.read(e.name)).toString('utf8');
        }),
      }));
    },
  };
}
