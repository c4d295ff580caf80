// The permissions' module: the role gate, each role's rules (`PermissionService`, the one access
// decision of src/permissions/access.ts comes from it) and per-role schemas. Their store is the
// core database, bound by the system module to these tokens; who drops their caches when roles or
// rules change is wired there too (a write to core.roles, an invalidation of `$role_permissions`).
import { Global, Module } from '@nestjs/common';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import { RoleGate, ROLE_STORE, type RoleStore } from './roles.js';
import { RoleSchemas } from './schema-filter.js';
import { PERMISSION_STORE, PermissionService, type PermissionStore } from './service.js';

@Global()
@Module({
  providers: [
    { provide: PermissionService, useFactory: (store: PermissionStore, config: Config) => new PermissionService(store, config.ROLE_PERMISSIONS_TTL), inject: [PERMISSION_STORE, CONFIG] },
    { provide: RoleGate, useFactory: (store: RoleStore) => new RoleGate(store), inject: [ROLE_STORE] },
    { provide: RoleSchemas, useFactory: () => new RoleSchemas() },
  ],
  exports: [PermissionService, RoleGate, RoleSchemas],
})
export class PermissionsModule {}
