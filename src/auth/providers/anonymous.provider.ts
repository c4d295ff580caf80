// Anonymous access (seed 000 "Anonymous"): the last resort when no credential was presented.
import type { Identity } from '../identity.js';
import { unauthenticated } from '../errors.js';

export class AnonymousProvider {
  constructor(
    private readonly enabled: boolean,
    private readonly role: string,
  ) {}

  identity(): Identity {
    if (!this.enabled) throw unauthenticated('authentication required');
    // Seed 000 variables table: user_name `anonymous`, user_id null.
    return { role: this.role, userId: null, userName: 'anonymous', authType: 'anonymous' };
  }
}
