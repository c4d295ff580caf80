// A streamed list's rows are completed by svc itself (src/pipeline/streamed-rows.ts), after the
// operation ran: their errors must be formatted as every /query error is (graphql-server.ts
// formatOwnError). A refused value is VALUE_NOT_REPRESENTABLE; any other completion error is masked
// as `internal server error`, logged, and carries the request's id in the answer and the log line.
import { Writable } from 'node:stream';
import { GraphQLFloat, GraphQLInt, GraphQLScalarType, GraphQLString, Kind, type FieldNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { Out } from '../../src/pipeline/fast-path/shape.js';
import { formatOwnError } from '../../src/pipeline/graphql-server.js';
import { StreamedRows } from '../../src/pipeline/streamed-rows.js';
import { createLogger } from '../../src/shared/logger.js';
import { RequestScope, leaveRequest, runInRequest } from '../../src/shared/request-scope.js';

const JSONish = new GraphQLScalarType({ name: 'JSON', serialize: (v) => v });
const node: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: 'items' } };
const leaf = (type: GraphQLScalarType): Out => ({ kind: 'leaf', type });
// `items { id x tags meta }`: meta is a JSON field, so every row is completed (not only suspicious ones).
const item: Out = {
  kind: 'non_null',
  of: {
    kind: 'object',
    keys: ['id', 'x', 'tags', 'meta'],
    fields: [
      { key: 'id', name: 'id', out: { kind: 'non_null', of: leaf(GraphQLInt) }, parent: 'Item' },
      { key: 'x', name: 'x', out: leaf(GraphQLFloat), parent: 'Item' },
      { key: 'tags', name: 'tags', out: { kind: 'list', of: leaf(GraphQLString) }, parent: 'Item' },
      { key: 'meta', name: 'meta', out: leaf(JSONish), parent: 'Item' },
    ],
  },
};

function capture(): { log: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const out = new Writable({ write: (chunk, _enc, done) => { for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l)); done(); } });
  return { log: createLogger('info', 'json', out), lines };
}

describe("a streamed list's row errors are formatted as /query formats errors", () => {
  it('a refused value is VALUE_NOT_REPRESENTABLE; another completion error is masked, logged and names the request', async () => {
    const { log, lines } = capture();
    const format = formatOwnError(log);
    const scope = new RequestScope('req-streamed-1');
    const rows = new StreamedRows(item, ['items'], [node]);
    const batch = ['{"id":1,"x":1.5,"tags":["a"],"meta":{}}', '{"id":2,"x":"NaN","tags":["b"],"meta":null}', '{"id":3,"x":2,"tags":"not a list","meta":null}'];
    // As the /query route does: formatted inside the request's storage.
    const out = rows.batch(batch, (e) => runInRequest(scope, () => format(e)));
    leaveRequest(scope);
    expect(out).toEqual(['{"id":1,"x":1.5,"tags":["a"],"meta":{}}', '{"id":2,"x":null,"tags":["b"],"meta":null}', '{"id":3,"x":2,"tags":null,"meta":null}']);
    const errors = rows.errors.map((e) => JSON.parse(e));
    expect(errors[0]).toEqual({
      message: 'the value at items.1.x is NaN, which the GraphQL type Float cannot represent',
      path: ['items', 1, 'x'],
      extensions: { code: 'VALUE_NOT_REPRESENTABLE' },
    });
    expect(errors[1]).toEqual({
      message: 'internal server error',
      path: ['items', 2, 'tags'],
      extensions: { code: 'INTERNAL_SERVER_ERROR', request_id: 'req-streamed-1' },
    });
    // The cause is in the log, under the same id, never in the answer.
    await new Promise((r) => setImmediate(r));
    const line = lines.find((l) => l.msg === 'resolver failed');
    expect(line).toMatchObject({ level: 50, request_id: 'req-streamed-1', path: ['items', 2, 'tags'] });
    expect(JSON.stringify(line)).toContain('Expected Iterable');
    expect(JSON.stringify(errors)).not.toContain('Expected Iterable');
  });
});
