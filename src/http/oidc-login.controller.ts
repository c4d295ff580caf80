// The OIDC browser login (docs/auth.md "Browser login"): GET /auth/login sends the browser to the
// issuer, GET /auth/callback finishes the authorization code flow with PKCE and sets the session
// cookie (OIDC_COOKIE_NAME) the OIDC provider accepts, GET or POST /auth/logout clears it. Served
// when auth.oidc has client_id and redirect_uri (src/auth/oidc-login.ts).
import { Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LOGIN_COOKIE, LOGIN_TTL_S, OidcLogin, safeReturn } from '../auth/oidc-login.js';
import { authSettings } from '../auth/settings.js';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import { PublicError } from '../shared/errors.js';

function cookieOf(req: FastifyRequest, name: string): string | undefined {
  for (const part of String(req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

export class OidcLoginRoutes {
  readonly login: OidcLogin;

  constructor(config: Config) {
    const cfg = config.auth.oidc;
    if (!OidcLogin.configured(cfg)) throw new Error('OIDC login routes without auth.oidc client_id and redirect_uri');
    this.login = new OidcLogin(cfg, authSettings(config));
  }

  cookie(name: string, value: string, maxAge: number, path = '/'): string {
    return `${name}=${encodeURIComponent(value)}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${this.login.secureCookies ? '; Secure' : ''}`;
  }
}

@Controller('auth')
export class OidcLoginController {
  private readonly routes: OidcLoginRoutes;

  constructor(@Inject(CONFIG) config: Config) {
    this.routes = new OidcLoginRoutes(config);
  }

  private fail(reply: FastifyReply, e: unknown): void {
    if (!(e instanceof PublicError)) throw e;
    void reply.status(e.status === 200 ? 400 : e.status).header('cache-control', 'no-store').send({ errors: [{ message: e.message, extensions: { code: e.code } }] });
  }

  @Get('login')
  async start(@Query('return_to') returnTo: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    try {
      const s = await this.routes.login.begin(returnTo);
      void reply.status(302).header('cache-control', 'no-store').header('set-cookie', this.routes.cookie(LOGIN_COOKIE, s.cookie, LOGIN_TTL_S, '/auth')).header('location', s.redirect).send();
    } catch (e) {
      this.fail(reply, e);
    }
  }

  @Get('callback')
  async callback(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const done = await this.routes.login.finish(new URL(req.url, 'http://callback'), cookieOf(req, LOGIN_COOKIE));
      void reply
        .status(302)
        .header('cache-control', 'no-store')
        .header('set-cookie', [this.routes.cookie(this.routes.login.cookieName, done.idToken, done.maxAge), this.routes.cookie(LOGIN_COOKIE, '', 0, '/auth')])
        .header('location', done.returnTo)
        .send();
    } catch (e) {
      this.fail(reply, e);
    }
  }

  @Get('logout')
  async logoutGet(@Req() req: FastifyRequest, @Query('return_to') returnTo: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    await this.logout(req, returnTo, reply);
  }

  @Post('logout')
  async logout(@Req() req: FastifyRequest, @Query('return_to') returnTo: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    const idToken = cookieOf(req, this.routes.login.cookieName);
    const issuerLogout = await this.routes.login.endSession(idToken, this.routes.login.afterLogout(returnTo));
    void reply
      .status(302)
      .header('cache-control', 'no-store')
      .header('set-cookie', this.routes.cookie(this.routes.login.cookieName, '', 0))
      .header('location', issuerLogout ?? safeReturn(returnTo))
      .send();
  }
}
