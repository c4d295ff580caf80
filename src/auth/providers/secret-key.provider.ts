// The secret key and the cluster secret (SPEC §6, seed 000 "Secret key"): checked before every other
// method. Only a secret-key caller may impersonate; its override headers are ignored for everyone else
// simply because no other provider reads them.
import type { Identity } from '../identity.js';
import { unauthenticated } from '../errors.js';
import type { AuthRequest } from '../request.js';
import type { AuthProvider } from './provider.js';
import { same } from './same.js';

const ADMIN: Identity = { role: 'admin', userId: 'api', userName: 'api', authType: 'apiKey' };

export class SecretKeyProvider implements AuthProvider {
  readonly name = 'secret_key';

  constructor(
    private readonly secretKey: string,
    private readonly clusterSecret: string,
  ) {}

  authenticate(req: AuthRequest): Identity | undefined {
    const cluster = req.header('x-svc-cluster-secret');
    if (cluster !== undefined) {
      // Internal calls between nodes (SPEC §12) run as admin and never impersonate.
      if (!this.clusterSecret || !same(cluster, this.clusterSecret)) throw unauthenticated('invalid cluster secret');
      return { role: 'admin', userId: 'cluster', userName: 'cluster', authType: 'cluster' };
    }
    const secret = req.header('x-svc-secret-key');
    if (secret === undefined) return undefined;
    // An unset SECRET_KEY disables the method; a presented key is then simply wrong, never a match.
    if (!this.secretKey || !same(secret, this.secretKey)) throw unauthenticated('invalid secret key');
    return impersonate(req) ?? ADMIN;
  }
}

/** Seed 000 "Secret key" rule 2: the override headers, each falling back to the admin identity's value. */
function impersonate(req: AuthRequest): Identity | undefined {
  const role = req.header('x-svc-role');
  const userId = req.header('x-svc-user-id');
  const userName = req.header('x-svc-user-name');
  if (role === undefined && userId === undefined && userName === undefined) return undefined;
  return {
    role: role ?? ADMIN.role,
    userId: userId ?? ADMIN.userId,
    // A caller naming only a user id is most useful shown under that id rather than as `api`.
    userName: userName ?? userId ?? ADMIN.userName,
    authType: 'impersonation',
    impersonatedBy: { role: ADMIN.role, userId: ADMIN.userId!, userName: ADMIN.userName },
  };
}
