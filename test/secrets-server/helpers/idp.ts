import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { markSensitive } from './sensitive.js';

// An identity provider in-process, on 127.0.0.1: discovery, JWKS, and a token endpoint for RFC 8693
// exchange and refresh, with switches for outages and ended sessions.

export interface IdpOptions {
  /** issuer path, e.g. '' (default), '/' (trailing slash) or '/realms/x' */
  path?: string;
  /** exchange clients: client_id -> secret */
  clients?: Record<string, string>;
}

export interface TokenOptions {
  alg?: 'RS256' | 'ES256';
  /** seconds; negative makes an expired token */
  expiresIn?: number;
  noExp?: boolean;
}

export class TestIdp {
  issuer = '';
  base = '';
  outage = false;
  /** answer exchanges with a token for this audience instead of the requested one */
  audienceOverride?: string;
  sessionsEnded = false;
  /** lifetime of minted tokens, seconds */
  mintedLifetime = 300;
  exchanges = 0;
  refreshes = 0;
  discoveryHits = 0;
  /** every request, outages included */
  requests = 0;
  /** served as jwks_uri instead of the real one */
  jwksUriOverride?: string;
  private server!: Server;
  private rsa!: { publicKey: CryptoKey; privateKey: CryptoKey };
  private ec!: { publicKey: CryptoKey; privateKey: CryptoKey };
  private readonly refreshTokens = new Map<string, { sub: string; audience: string }>();

  constructor(private readonly opts: IdpOptions = {}) {}

  static async start(opts: IdpOptions = {}): Promise<TestIdp> {
    const idp = new TestIdp(opts);
    idp.rsa = await generateKeyPair('RS256', { extractable: true });
    idp.ec = await generateKeyPair('ES256', { extractable: true });
    idp.server = createServer((req, res) => void idp.handle(req, res));
    await new Promise<void>((r) => idp.server.listen(0, '127.0.0.1', r));
    const { port } = idp.server.address() as AddressInfo;
    idp.base = `http://127.0.0.1:${port}`;
    idp.issuer = `${idp.base}${opts.path ?? ''}`;
    return idp;
  }

  get rsaPublicKey(): CryptoKey {
    return this.rsa.publicKey;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  /** A signed access token; claims override the defaults (iss, aud, sub, exp). */
  async token(claims: JWTPayload & Record<string, unknown>, o: TokenOptions = {}): Promise<string> {
    const alg = o.alg ?? 'RS256';
    const now = Math.floor(Date.now() / 1000);
    const body: JWTPayload = { iss: this.issuer, iat: now, ...claims };
    if (!o.noExp && body.exp === undefined) body.exp = now + (o.expiresIn ?? 600);
    const key = alg === 'RS256' ? this.rsa.privateKey : this.ec.privateKey;
    const jwt = await new SignJWT(body).setProtectedHeader({ alg, kid: alg === 'RS256' ? 'rsa' : 'ec' }).sign(key);
    return markSensitive(jwt);
  }

  private async handle(req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const path = (req.url ?? '').split('?')[0] ?? '';
    const prefix = (this.opts.path ?? '').replace(/\/$/, '');
    this.requests++;
    if (this.outage) return send(503, { error: 'temporarily_unavailable' });
    if (req.method === 'GET' && path === `${prefix}/.well-known/openid-configuration`) {
      this.discoveryHits++;
      return send(200, { issuer: this.issuer, jwks_uri: this.jwksUriOverride ?? `${this.base}/jwks`, token_endpoint: `${this.base}/token` });
    }
    if (req.method === 'GET' && path === '/jwks') {
      const rsa = { ...(await exportJWK(this.rsa.publicKey)), kid: 'rsa', alg: 'RS256', use: 'sig' };
      const ec = { ...(await exportJWK(this.ec.publicKey)), kid: 'ec', alg: 'ES256', use: 'sig' };
      return send(200, { keys: [rsa, ec] });
    }
    if (req.method === 'POST' && path === '/token') {
      let text = '';
      for await (const c of req) text += String(c);
      return this.tokenEndpoint(new URLSearchParams(text), send);
    }
    return send(404, { error: 'not_found' });
  }

  private async tokenEndpoint(form: URLSearchParams, send: (s: number, b: unknown) => void): Promise<void> {
    const clientId = form.get('client_id') ?? '';
    const secret = this.opts.clients?.[clientId];
    if (!secret || form.get('client_secret') !== secret) return send(401, { error: 'invalid_client' });
    let sub: string;
    let audience: string;
    if (form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:token-exchange') {
      this.exchanges++;
      if (form.get('subject_token_type') !== 'urn:ietf:params:oauth:token-type:access_token') return send(400, { error: 'invalid_request' });
      try {
        const { payload } = await jwtVerify(form.get('subject_token') ?? '', this.rsa.publicKey, { issuer: this.issuer });
        sub = payload.sub ?? '';
      } catch {
        return send(400, { error: 'invalid_grant' });
      }
      if (this.sessionsEnded) return send(400, { error: 'invalid_grant' });
      audience = form.get('audience') ?? '';
      if (audience === 'refused-audience') return send(400, { error: 'invalid_target' });
    } else if (form.get('grant_type') === 'refresh_token') {
      this.refreshes++;
      const known = this.refreshTokens.get(form.get('refresh_token') ?? '');
      if (!known || this.sessionsEnded) return send(400, { error: 'invalid_grant' });
      ({ sub, audience } = known);
    } else {
      return send(400, { error: 'unsupported_grant_type' });
    }
    const aud = this.audienceOverride ?? audience;
    const access = await this.token({ sub, aud, azp: clientId, scope: form.get('scope') ?? undefined, jti: randomBytes(8).toString('hex') }, { expiresIn: this.mintedLifetime });
    const refresh = markSensitive(`rt-${randomBytes(16).toString('hex')}`);
    this.refreshTokens.set(refresh, { sub, audience });
    send(200, {
      access_token: access,
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      token_type: 'Bearer',
      expires_in: this.mintedLifetime,
      refresh_token: refresh,
    });
  }
}
