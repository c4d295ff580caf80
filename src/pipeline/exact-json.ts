// Integers beyond 2^53 stay exact from the request body to the database (issue 15, SPEC §3.4).
// JSON bodies are parsed with parseDbJson (such integers become BigInt values); once the operation
// is known, a BigInt in a variable that is not BigInt or JSON becomes a number again, so Int and
// Float keep graphql-js's own checks and messages.
import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import { type GraphQLInputType, type GraphQLSchema, isInputObjectType, isListType, isNonNullType, isScalarType, type OperationDefinitionNode, typeFromAST } from 'graphql';
import type { RequestContext } from '../executor/request-context.js';
import { parseDbJson } from '../shared/json.js';

/** Scalars whose values may be BigInt (exact); every other scalar gets a number. */
const EXACT = new Set(['BigInt', 'JSON']);

/** Replaces Fastify's JSON body parser with one that keeps big integers exact. */
export function exactJsonBodies(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (!text.trim()) return done(Object.assign(new Error("Body cannot be empty when content-type is set to 'application/json'"), { statusCode: 400, code: 'FST_ERR_CTP_EMPTY_JSON_BODY' }));
    try {
      done(null, parseDbJson(text));
    } catch (e) {
      done(Object.assign(new Error(`invalid JSON: ${(e as Error).message}`), { statusCode: 400 }));
    }
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
