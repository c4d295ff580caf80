// A small OpenID Connect provider on 127.0.0.1 for the browser login (issue 32 item 5): discovery,
// JWKS, an authorize endpoint that signs in one user at once (no page), a token endpoint for the
// authorization code grant that checks the client secret and the PKCE verifier (S256), and an
// end-session endpoint. It records what it was sent.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

interface Pending { clientId: string; redirect: string; challenge: string; method: string; nonce?: string; scope: string }

export class LoginIdp {
  issuer = '';
  /** What /authorize was asked, last first. */
  readonly authorizations: URLSearchParams[] = [];
  /** Token requests: whether the verifier matched. */
  readonly exchanges: { pkce: boolean; clientAuth: boolean }[] = [];
  /** The user the next login signs in. */
  user = { sub: 'u-alice', name: 'Alice', roles: ['admin'] };
  private server!: Server;
  private keys!: { publicKey: CryptoKey; privateKey: CryptoKey };
  private readonly codes = new Map<string, Pending>();

  private constructor(private readonly clients: Record<string, string>) {}

  static async start(clients: Record<string, string>): Promise<LoginIdp> {
    const idp = new LoginIdp(clients);
    idp.keys = await generateKeyPair('RS256', { extractable: true });
    idp.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => void idp.handle(req, res, body));
    });
    await new Promise<void>((r) => idp.server.listen(0, '127.0.0.1', r));
    idp.issuer = `http://127.0.0.1:${(idp.server.address() as AddressInfo).port}`;
    return idp;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const url = new URL(req.url ?? '/', this.issuer);
    const json = (status: number, v: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(v));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: this.issuer, authorization_endpoint: `${this.issuer}/authorize`, token_endpoint: `${this.issuer}/token`, jwks_uri: `${this.issuer}/jwks`,
        end_session_endpoint: `${this.issuer}/logout`, response_types_supported: ['code'], subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'], code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [{ ...(await exportJWK(this.keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] });
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      this.authorizations.unshift(q);
      const redirect = q.get('redirect_uri') ?? '';
      if (!this.clients[q.get('client_id') ?? ''] || q.get('response_type') !== 'code' || !q.get('code_challenge')) return json(400, { error: 'invalid_request' });
      const code = randomBytes(16).toString('base64url');
      this.codes.set(code, { clientId: q.get('client_id')!, redirect, challenge: q.get('code_challenge')!, method: q.get('code_challenge_method') ?? 'plain', nonce: q.get('nonce') ?? undefined, scope: q.get('scope') ?? '' });
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return void res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const f = new URLSearchParams(body);
      const [id, secret] = Buffer.from(String(req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':').map((s) => decodeURIComponent(s));
      const pending = this.codes.get(f.get('code') ?? '');
      this.codes.delete(f.get('code') ?? '');
      const clientAuth = !!id && this.clients[id] === secret;
      const pkce = !!pending && pending.method === 'S256' && createHash('sha256').update(f.get('code_verifier') ?? '').digest('base64url') === pending.challenge;
      this.exchanges.push({ pkce, clientAuth });
      if (!clientAuth) return json(401, { error: 'invalid_client' });
      if (!pending || !pkce || pending.redirect !== f.get('redirect_uri') || f.get('grant_type') !== 'authorization_code') return json(400, { error: 'invalid_grant' });
      const now = Math.floor(Date.now() / 1000);
      const idToken = await new SignJWT({ ...this.user, ...(pending.nonce ? { nonce: pending.nonce } : {}) })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer(this.issuer).setAudience(pending.clientId).setSubject(this.user.sub).setIssuedAt(now).setExpirationTime(now + 300)
        .sign(this.keys.privateKey);
      return json(200, { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 300, id_token: idToken, scope: pending.scope });
    }
    if (url.pathname === '/logout') return json(200, {});
    json(404, {});
  }
}
