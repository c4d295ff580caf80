// Pure parts: the `[$auth.*]` variable map, role extraction from claims, header and cookie reading.
import { describe, expect, it } from 'vitest';
import { AuthRequest } from '../../src/auth/request.js';
import { duration } from '../../src/auth/settings.js';
import { peekJwt, roleFrom } from '../../src/auth/token-claims.js';
import { authVariables } from '../../src/auth/variables.js';

describe('authVariables', () => {
  it('maps an impersonated identity', () => {
    const v = authVariables({ role: 'viewer', userId: '42', userName: 'Grace', authType: 'impersonation', impersonatedBy: { role: 'admin', userId: 'api', userName: 'api' } });
    expect(v).toEqual({
      user_id: '42', user_id_int: 42, user_name: 'Grace', role: 'viewer', auth_type: 'impersonation', provider: null, email: null,
      impersonated_by_role: 'admin', impersonated_by_user_id: 'api', impersonated_by_user_name: 'api',
    });
  });

  it('gives user_id_int null for non-integers and values beyond safe integers', () => {
    const at = (userId: string | null) => authVariables({ role: 'r', userId, userName: 'n', authType: 'jwt' }).user_id_int;
    expect(at('abc')).toBeNull();
    expect(at('12a')).toBeNull();
    expect(at(null)).toBeNull();
    expect(at('-5')).toBe(-5);
    expect(at('99999999999999999999')).toBeNull();
  });

  it('adds custom claims and email, but never lets a claim shadow a standard variable', () => {
    const v = authVariables({ role: 'viewer', userId: 'u', userName: 'U', authType: 'oidc', provider: 'https://idp', claims: { email: 'u@example.com', org: 7, role: 'admin', auth_type: 'secret' } });
    expect(v).toMatchObject({ email: 'u@example.com', org: 7, role: 'viewer', auth_type: 'oidc', provider: 'https://idp' });
  });
});

describe('roleFrom', () => {
  it('reads nested claims and priorities', () => {
    expect(roleFrom({ realm_access: { roles: ['a', 'b'] } }, { roleClaim: 'realm_access.roles', priority: ['b'] })).toBe('b');
    expect(roleFrom({ 'https://x/role': 'r' }, { roleClaim: 'https://x/role' })).toBe('r');
    expect(roleFrom({ scp: ['svc:a'] }, { scopePrefix: 'svc:' })).toBe('a');
    expect(roleFrom({ scope: 'svc:' }, { scopePrefix: 'svc:' })).toBeUndefined();
    expect(roleFrom({ role: 5 }, { roleClaim: 'role' })).toBeUndefined();
  });
});

describe('AuthRequest', () => {
  it('reads Bearer tokens, other schemes and cookies', () => {
    const r = new AuthRequest({ authorization: 'bearer abc', cookie: 'a=1; svc_session=t%2Bk; svc_session=second; q="quoted"' });
    expect(r.bearer).toBe('abc');
    expect(r.otherScheme).toBe(false);
    expect(r.cookie('svc_session')).toBe('t+k');
    expect(r.cookie('q')).toBe('quoted');
    expect(r.cookie('missing')).toBeUndefined();
    expect(new AuthRequest({ authorization: 'Basic x' }).otherScheme).toBe(true);
    expect(new AuthRequest({ 'x-a': ['1', '2'] }).header('X-A')).toBe('1');
  });

  it('tells a JWT from an opaque string without trusting it', () => {
    expect(peekJwt('abc.def')).toBeUndefined();
    expect(peekJwt('a.b.c')).toBeUndefined();
    const t = `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from('{"iss":"x"}').toString('base64url')}.sig`;
    expect(peekJwt(t)?.payload.iss).toBe('x');
  });
});

describe('duration', () => {
  it('reads the SPEC §2 duration forms', () => {
    expect(duration('10s')).toBe(10_000);
    expect(duration('250ms')).toBe(250);
    expect(duration('2m')).toBe(120_000);
    expect(duration('3')).toBe(3000);
    expect(duration('soon')).toBeUndefined();
  });
});
