// `core.storage` views (seed 001): the registered object storages, read from the core database
// without their credentials. `parameters` is JSON text of what is safe to show; the access key id
// is shown by its last four characters only, the secret not at all.
import { compileCatalog } from '../../catalog/compile.js';
import type { ResolvedCatalog, SourceType } from '../../catalog/model.js';

export const STORAGE_SOURCE = 'core.storage';
export const STORAGE_PREFIX = 'core_storage';

function storageViewsSdl(type: SourceType): string {
  const pg = type === 'postgres';
  const key = `CASE WHEN length(key_id) > 8 THEN '***' || right(key_id, 4) ELSE '***' END`;
  const params = `${pg ? 'json_build_object' : 'json_object'}('endpoint', endpoint, 'region', region, 'use_ssl', use_ssl, 'url_style', url_style, 'url_compatibility', url_compatibility, 'kms_key_id', kms_key_id, 'account_id', account_id, 'key_id', ${key})`;
  const sql = `SELECT name, type, ${pg ? 'ARRAY[scope]' : '[scope]'} AS scope, CAST(${params} AS ${pg ? 'TEXT' : 'VARCHAR'}) AS parameters FROM [$catalog]._object_storages`;
  return /* GraphQL */ `
"""Object storages registered with register_object_storage; credentials are never shown."""
type registered_object_storages @view(name: "_object_storages", sql: ${JSON.stringify(sql)}) {
  name: String! @pk
  "s3, r2 or gcs (all reached through the S3 API)"
  type: String
  "URL prefixes the storage serves"
  scope: [String]
  "JSON: endpoint, region, use_ssl, url_style, url_compatibility, kms_key_id, account_id, key_id (last four characters)"
  parameters: String
}
`;
}

/** The storage views on the core database's kind, at \`{ core { storage { ... } } }\`. */
export function compileStorageViews(type: SourceType): ResolvedCatalog {
  return compileCatalog(
    { name: STORAGE_SOURCE, type, prefix: STORAGE_PREFIX, asModule: true, readOnly: true, module: 'core.storage' },
    [{ file: 'src/system/storage/views.ts', text: storageViewsSdl(type) }],
  );
}
