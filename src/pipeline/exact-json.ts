// JSON request bodies: read with their limits checked as they stream in (issue 31), and integers
// beyond 2^53 kept exact from the request body to the database (issue 15, SPEC §3.4).
// JSON bodies are parsed with parseDbJson (such integers become BigInt values); once the operation
// is known, a BigInt in a variable that is not BigInt or JSON becomes a number again, so Int and
// Float keep graphql-js's own checks and messages.
import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import { type GraphQLInputType, type GraphQLSchema, isInputObjectType, isListType, isNonNullType, isScalarType, type OperationDefinitionNode, typeFromAST } from 'graphql';
import type { RequestContext } from '../executor/request-context.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { parseDbJson } from '../shared/json.js';
import { type BodyLimitCrossed, BodyScan } from './limits/body-scan.js';
import { MAX_NESTING } from './limits/cost-limit.js';

/** Scalars whose values may be BigInt (exact); every other scalar gets a number. */
const EXACT = new Set(['BigInt', 'JSON']);

/** Limits a JSON body is held to while it streams in (src/pipeline/limits/body-scan.ts). */
export interface JsonBodyLimits {
  /** Bytes (MAX_BODY_SIZE; Fastify's bodyLimit). */
  readonly maxBytes: number;
  /** Values of one list (MAX_LIST_VALUES; 0: no limit). */
  readonly maxListValues: number;
}

/** The refusal of a body that crossed a limit while it was read (413 for sizes, 400 for nesting). */
function crossedError(crossed: BodyLimitCrossed, limits: JsonBodyLimits): PublicError {
  if (crossed.limit === 'list') {
    return new PublicError(ErrorCode.PayloadTooLarge, `the request body holds a list of more than ${limits.maxListValues} values at ${crossed.path} (MAX_LIST_VALUES); split the request`, 413);
  }
  return new PublicError(ErrorCode.BadUserInput, `the request variables nest values more than ${MAX_NESTING} levels deep at ${crossed.path} (e.g. _and/_or filters); write the filter flatter`, 400);
}

/**
 * Replaces Fastify's JSON body parser with one that keeps big integers exact and refuses, while the
 * body streams in, a list or a nesting beyond the limits: at the byte that crosses it, before the
 * rest is read or anything is parsed (issue 31).
 */
export function exactJsonBodies(fastify: FastifyInstance, limits: JsonBodyLimits): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', (req, payload, done) => {
    const length = Number(req.headers['content-length']);
    // Fastify's own codes, answered as 413 PAYLOAD_TOO_LARGE (src/http/errors.ts).
    const tooLarge = () => Object.assign(new Error('Request body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    if (length > limits.maxBytes) return done(tooLarge(), undefined);
    const scan = new BodyScan({ maxListValues: limits.maxListValues, maxNesting: MAX_NESTING });
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (err: Error | undefined, body?: unknown) => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
      done(err ?? null, body);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > limits.maxBytes) return finish(tooLarge());
      const crossed = scan.feed(bytes);
      if (crossed) return finish(crossedError(crossed, limits));
      chunks.push(bytes);
    };
    const onEnd = (err?: Error) => {
      if (err) return finish(Object.assign(err, { statusCode: 400 }));
      if (!Number.isNaN(length) && received !== length) return finish(Object.assign(new Error('Request body size did not match Content-Length'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' }));
      const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received)).toString('utf8');
      if (!text.trim()) return finish(Object.assign(new Error("Body cannot be empty when content-type is set to 'application/json'"), { statusCode: 400, code: 'FST_ERR_CTP_EMPTY_JSON_BODY' }));
      let body: unknown;
      try {
        body = scan.mayHoldBigIntegers ? parseDbJson(text) : JSON.parse(text);
      } catch (e) {
        return finish(Object.assign(new Error(`invalid JSON: ${(e as Error).message}`), { statusCode: 400 }));
      }
      finish(undefined, body);
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  });
}

function fit(value: unknown, type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return fit(value, type.ofType);
  if (value === null || value === undefined) return value;
  if (isListType(type)) return Array.isArray(value) ? value.map((v) => fit(v, type.ofType)) : fit(value, type.ofType);
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) return value;
    const fields = type.getFields();
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fields[k] ? fit(v, fields[k].type) : v;
    return out;
  }
  if (typeof value === 'bigint' && isScalarType(type) && !EXACT.has(type.name)) return Number(value);
  return value;
}

/** Variables with BigInt values only where the operation declares BigInt (or JSON). */
export function fitBigInts(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Record<string, unknown>): void {
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    const type = typeFromAST(schema, def.type as never) as GraphQLInputType | undefined;
    if (type && name in variables) variables[name] = fit(variables[name], type);
  }
}

/** Runs fitBigInts before execution when the body carried any big integer. */
export function exactIntegersPlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(rc) {
          const variables = rc.request.variables;
          if (variables && rc.operation && hasBigInt(variables)) fitBigInts(rc.schema, rc.operation, variables as Record<string, unknown>);
        },
      };
    },
  };
}

export function hasBigInt(v: unknown): boolean {
  if (typeof v === 'bigint') return true;
  if (!v || typeof v !== 'object') return false;
  return (Array.isArray(v) ? v : Object.values(v)).some(hasBigInt);
}
