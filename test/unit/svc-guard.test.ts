// Every route of svc's own controllers that answers a caller's operation is behind SvcGuard, as a
// team's route is (issue 27): a new route or controller that forgets it fails here. WebSocket
// entries (/ipc sockets, /subscribe) are not Nest routes; they call the context factory themselves
// per connection and per message (test/pipeline/one-operation.test.ts runs them). A route registered
// on Fastify below Nest (/query, src/http/query.route.ts) calls SvcGuard's own decision,
// `admitRequest`; test/http/query-route.test.ts sends it refused callers.
import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { expect, it } from 'vitest';
import { IpcController } from '../../src/http/ipc/ipc.controller.js';
import { QueryController } from '../../src/http/query.route.js';
import { JqController } from '../../src/jq/jq.controller.js';
import { McpController } from '../../src/mcp/mcp.controller.js';
import { SvcGuard } from '../../src/pipeline/svc.guard.js';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');

function guarded(controller: new (...a: never[]) => unknown, method: string): boolean {
  const guards = [...(Reflect.getMetadata(GUARDS_METADATA, controller) ?? []), ...(Reflect.getMetadata(GUARDS_METADATA, (controller.prototype as Record<string, object>)[method]!) ?? [])];
  return guards.includes(SvcGuard);
}

it('guards /query (GET and POST, when served through Nest), POST /ipc, POST /jq-query and POST /mcp with SvcGuard', () => {
  const routes: [new (...a: never[]) => unknown, string, string][] = [
    [QueryController, 'post', 'query'], [QueryController, 'get', 'query'], [IpcController, 'post', 'ipc'], [JqController, 'post', 'jq-query'], [McpController, 'post', 'mcp'],
  ];
  for (const [controller, method, path] of routes) {
    expect(Reflect.getMetadata(PATH_METADATA, (controller.prototype as Record<string, object>)[method]!), `${controller.name}.${method}`).toBe(path);
    expect(guarded(controller, method), `${controller.name}.${method} is not behind SvcGuard`).toBe(true);
  }
});

it('no controller makes a caller context itself (only SvcGuard and the WebSocket entries do)', () => {
  const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : [join(dir, d.name)]));
  const controllers = files(SRC).filter((f) => f.endsWith('.ts') && !f.endsWith('svc.guard.ts') && /^@Controller\(/m.test(readFileSync(f, 'utf8')));
  expect(controllers.length).toBeGreaterThan(5);
  const bypass = controllers.filter((f) => /\.fromHeaders\(/.test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f));
  expect(bypass).toEqual([]);
});

it('a route registered on Fastify itself asks the same access decision as SvcGuard', () => {
  const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : [join(dir, d.name)]));
  const below = files(SRC).filter((f) => f.endsWith('.ts') && /\.route\(\{|\b(fastify|instance)\.(get|post|put|patch|delete|all)\(/.test(readFileSync(f, 'utf8')));
  expect(below.map((f) => relative(SRC, f))).toEqual(['http/query.route.ts']);
  for (const f of below) expect(readFileSync(f, 'utf8'), `${relative(SRC, f)} registers a route without admitRequest`).toMatch(/admitRequest\(this\.contexts, req\)/);
});
