// GET /admin: GraphiQL with the explorer plugin and svc's panel (src/http/admin-page.ts), served
// from the installed packages so it works without internet access.
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ADMIN_PAGE } from './admin-page.js';

const require = createRequire(import.meta.url);
// Package "exports" hide the UMD files from resolution; locate each package, then the file.
const file = (pkg: string, path: string): string => join(dirname(require.resolve(`${pkg}/package.json`)), path);
const ASSETS: Record<string, [string, string]> = {
  'react.js': [file('react', 'umd/react.production.min.js'), 'text/javascript'],
  'react-dom.js': [file('react-dom', 'umd/react-dom.production.min.js'), 'text/javascript'],
  'graphiql.js': [file('graphiql', 'graphiql.min.js'), 'text/javascript'],
  'graphiql.css': [file('graphiql', 'graphiql.min.css'), 'text/css'],
  'explorer.js': [file('@graphiql/plugin-explorer', 'dist/index.umd.js'), 'text/javascript'],
  'explorer.css': [file('@graphiql/plugin-explorer', 'dist/style.css'), 'text/css'],
};

@Controller('admin')
export class AdminController {
  @Get()
  page(@Res() reply: FastifyReply): void {
    void reply.header('content-type', 'text/html; charset=utf-8').send(ADMIN_PAGE);
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() reply: FastifyReply): void {
    const asset = ASSETS[name];
    if (!asset) throw new NotFoundException();
    void reply.header('content-type', asset[1]).header('cache-control', 'public, max-age=86400').send(createReadStream(asset[0]));
  }
}
