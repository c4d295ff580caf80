// The authentication module: `IdentityService` turns a request's headers into an identity (SPEC §6).
// Managed API keys are read from the core database, bound by the system module to API_KEY_STORE.
import { Global, Module } from '@nestjs/common';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import { IdentityService } from './identity.service.js';
import { API_KEY_STORE, type ApiKeyStore } from './providers/managed-keys.js';

@Global()
@Module({
  providers: [{ provide: IdentityService, useFactory: (c: Config, keys: ApiKeyStore) => new IdentityService(c, keys), inject: [CONFIG, API_KEY_STORE] }],
  exports: [IdentityService],
})
export class AuthModule {}
