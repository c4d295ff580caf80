// Anonymous access (seed 000 "Anonymous"): the last resort when no credential was presented.
import type { Identity } from '../identity.js';
import { unauthenticated } from '../errors.js';

export class AnonymousProvider {
  /**
   * Seed 000 variables table: user_name `anonymous`, user_id null. One frozen object for every
   * anonymous request: what is derived from an identity (its `[$auth.*]` map, its plan-cache key) is
   * then made once (issue 30).
   */
  private readonly anonymous: Identity;

  constructor(
    private readonly enabled: boolean,
    role: string,
  ) {
    this.anonymous = Object.freeze({ role, userId: null, userName: 'anonymous', authType: 'anonymous' });
  }

  identity(): Identity {
    if (!this.enabled) throw unauthenticated('authentication required');
    return this.anonymous;
  }
}
