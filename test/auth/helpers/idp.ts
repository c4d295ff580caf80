// A small identity provider on 127.0.0.1: an OIDC discovery document and a JWKS served by
// node:http, and helpers that mint good and deliberately bad tokens with jose.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

type Claims = JWTPayload & Record<string, unknown>;
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export class TestIdp {
  issuer = '';
  /** answer every request with 500, as an issuer in an outage would */
  down = false;
  discoveryHits = 0;
  jwksHits = 0;
  private server!: Server;
  rsa!: { publicKey: CryptoKey; privateKey: CryptoKey };
  ec!: { publicKey: CryptoKey; privateKey: CryptoKey };
  /** a key pair the JWKS does not publish */
  stranger!: { publicKey: CryptoKey; privateKey: CryptoKey };

  static async start(): Promise<TestIdp> {
    const idp = new TestIdp();
    idp.rsa = await generateKeyPair('RS256', { extractable: true });
    idp.ec = await generateKeyPair('ES256', { extractable: true });
    idp.stranger = await generateKeyPair('RS256', { extractable: true });
    const jwks = { keys: [{ ...(await exportJWK(idp.rsa.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' }, { ...(await exportJWK(idp.ec.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' }] };
    idp.server = createServer((req, res) => {
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (idp.down) return send(500, { error: 'down' });
      if (req.url === '/.well-known/openid-configuration') {
        idp.discoveryHits++;
        return send(200, { issuer: idp.issuer, jwks_uri: `${idp.issuer}/jwks`, id_token_signing_alg_values_supported: ['RS256', 'ES256'] });
      }
      if (req.url === '/jwks') {
        idp.jwksHits++;
        return send(200, jwks);
      }
      return send(404, { error: 'not found' });
    });
    await new Promise<void>((r) => idp.server.listen(0, '127.0.0.1', r));
    idp.issuer = `http://127.0.0.1:${(idp.server.address() as AddressInfo).port}`;
    return idp;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  rsaPublicPem(): Promise<string> {
    return exportSPKI(this.rsa.publicKey);
  }

  ecPublicPem(): Promise<string> {
    return exportSPKI(this.ec.publicKey);
  }

  /** Defaults: this issuer, expiry in ten minutes; `claims` override them (undefined removes). */
  private body(claims: Claims): Claims {
    const now = Math.floor(Date.now() / 1000);
    const out: Claims = { iss: this.issuer, iat: now, exp: now + 600, ...claims };
    for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
    return out;
  }

  rs256(claims: Claims, kid = 'rsa-1', key: CryptoKey = this.rsa.privateKey): Promise<string> {
    return new SignJWT(this.body(claims)).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
  }

  es256(claims: Claims): Promise<string> {
    return new SignJWT(this.body(claims)).setProtectedHeader({ alg: 'ES256', kid: 'ec-1' }).sign(this.ec.privateKey);
  }

  hs256(claims: Claims, secret: string | Uint8Array): Promise<string> {
    const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
    return new SignJWT(this.body(claims)).setProtectedHeader({ alg: 'HS256', kid: 'rsa-1' }).sign(key);
  }

  /** An unsecured JWT (`alg: none`, empty signature). */
  none(claims: Claims): string {
    return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(this.body(claims))}.`;
  }

  /** The classic key-confusion attack: HS256 with the issuer's public RSA key as the HMAC secret. */
  async confused(claims: Claims): Promise<string> {
    return this.hs256(claims, new TextEncoder().encode(await this.rsaPublicPem()));
  }

  /** A validly signed token whose payload was then changed (here: the role raised to admin). */
  async tampered(claims: Claims): Promise<string> {
    const [h, , s] = (await this.rs256(claims)).split('.');
    return `${h}.${b64(this.body({ ...claims, role: 'admin', roles: ['admin'] }))}.${s}`;
  }
}
