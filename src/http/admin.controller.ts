// GET /admin: GraphiQL, served from the installed package so it works without internet access.
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

const require = createRequire(import.meta.url);
// Package "exports" hide the UMD files from resolution; locate each package, then the file.
const file = (pkg: string, path: string): string => join(dirname(require.resolve(`${pkg}/package.json`)), path);
const ASSETS: Record<string, [string, string]> = {
  'react.js': [file('react', 'umd/react.production.min.js'), 'text/javascript'],
  'react-dom.js': [file('react-dom', 'umd/react-dom.production.min.js'), 'text/javascript'],
  'graphiql.js': [file('graphiql', 'graphiql.min.js'), 'text/javascript'],
  'graphiql.css': [file('graphiql', 'graphiql.min.css'), 'text/css'],
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>svc explorer</title>
<link rel="stylesheet" href="/admin/assets/graphiql.css">
<style>html,body,#app{height:100%;margin:0}</style></head>
<body><div id="app"></div>
<script src="/admin/assets/react.js"></script>
<script src="/admin/assets/react-dom.js"></script>
<script src="/admin/assets/graphiql.js"></script>
<script>
  const fetcher = GraphiQL.createFetcher({ url: new URL('/query', location.href).toString() });
  ReactDOM.createRoot(document.getElementById('app')).render(React.createElement(GraphiQL, { fetcher, defaultEditorToolbarOpen: true }));
</script></body></html>`;

@Controller('admin')
export class AdminController {
  @Get()
  page(@Res() reply: FastifyReply): void {
    void reply.header('content-type', 'text/html; charset=utf-8').send(PAGE);
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() reply: FastifyReply): void {
    const asset = ASSETS[name];
    if (!asset) throw new NotFoundException();
    void reply.header('content-type', asset[1]).header('cache-control', 'public, max-age=86400').send(createReadStream(asset[0]));
  }
}
