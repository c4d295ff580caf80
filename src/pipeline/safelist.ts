// Persisted queries (issue 20 item 5). Automatic persisted queries are Apollo Server's own (a client
// sends a hash, then the text once). With PERSISTED_QUERIES_ONLY=true the server runs only the
// operations of a manifest file (Apollo's persisted query list format, as `rover persisted-queries`
// and the client generators write it): a listed operation is sent by its id (APQ's hash extension)
// or as its exact text; anything else is refused before it is parsed, and nothing can be registered.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { KeyValueCache } from '@apollo/utils.keyvaluecache';
import { GraphQLError } from 'graphql';
import { z } from 'zod';
import { ErrorCode, PublicError } from '../shared/errors.js';

export const NOT_IN_LIST = 'PERSISTED_QUERY_NOT_IN_LIST';

const manifestSchema = z.object({
  format: z.literal('apollo-persisted-query-manifest'),
  version: z.literal(1),
  operations: z.array(z.object({ id: z.string().min(1), body: z.string().min(1), name: z.string().optional(), type: z.enum(['query', 'mutation', 'subscription']).optional() })),
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The persisted-query rule for a client's own jq program, decided here for every way in (`/jq-query`,
 * a `_jq` variable on /query, the `jq` argument of an MCP tool): with a safelist it is refused, since
 * the program's querySvc runs any text the safelist would not. Returns why (each entry point answers
 * it in its transport: 403, 400, a tool error), or undefined when the program may run.
 */
export function clientJqRefusal(config: { readonly PERSISTED_QUERIES_ONLY: boolean }, what: string): string | undefined {
  if (!config.PERSISTED_QUERIES_ONLY) return undefined;
  return `not accepted: ${what} carries the client's own jq program, and this server runs only persisted queries (PERSISTED_QUERIES_ONLY)`;
}

export class Safelist {
  private constructor(
    /** id (and the sha256 of the body, APQ's hash) -> body. */
    private readonly bodies: ReadonlyMap<string, string>,
    private readonly hashes: ReadonlySet<string>,
  ) {}

  /** Reads the manifest; a missing or malformed file stops the start, naming the file and the problem. */
  static load(file: string): Safelist {
    if (!file) throw new PublicError(ErrorCode.ConfigInvalid, 'PERSISTED_QUERIES_ONLY=true needs PERSISTED_QUERIES_MANIFEST (a persisted query manifest file)');
    let parsed;
    try {
      parsed = manifestSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    } catch (e) {
      throw new PublicError(ErrorCode.ConfigInvalid, `PERSISTED_QUERIES_MANIFEST ${file}: ${(e as Error).message}`);
    }
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new PublicError(ErrorCode.ConfigInvalid, `PERSISTED_QUERIES_MANIFEST ${file}: ${issue.path.join('.') || '(file)'}: ${issue.message}`);
    }
    const bodies = new Map<string, string>();
    for (const op of parsed.data.operations) {
      bodies.set(op.id, op.body);
      bodies.set(sha256(op.body), op.body);
    }
    return new Safelist(bodies, new Set(parsed.data.operations.map((o) => sha256(o.body))));
  }

  get size(): number {
    return this.hashes.size;
  }

  /** An error when the request is not a listed operation (body of a POST, or a GET's query string). */
  refusal(method: string, body: unknown, search: string): GraphQLError | undefined {
    const { query, hash } = requestOperation(method, body, search);
    const listed = query !== undefined ? this.hashes.has(sha256(query)) : hash !== undefined && this.bodies.has(hash);
    if (listed) return undefined;
    return new GraphQLError('this server runs only the operations of its persisted query list (PERSISTED_QUERIES_ONLY); send the id of a listed operation', {
      extensions: { code: NOT_IN_LIST },
    });
  }

  /**
   * Apollo's APQ store, answered from the manifest: a listed id resolves to its text; registering
   * a new operation (a set) does nothing.
   */
  apqCache(): KeyValueCache<string> {
    const bodies = this.bodies;
    return {
      async get(key: string) {
        return bodies.get(key.replace(/^apq:/, ''));
      },
      async set() {},
      async delete() {
        return false;
      },
    };
  }
}

function requestOperation(method: string, body: unknown, search: string): { query?: string; hash?: string } {
  let query: unknown;
  let extensions: unknown;
  if (method === 'GET') {
    const params = new URLSearchParams(search);
    query = params.get('query') ?? undefined;
    try {
      extensions = JSON.parse(params.get('extensions') ?? 'null');
    } catch {
      extensions = undefined;
    }
  } else if (body && typeof body === 'object') {
    ({ query, extensions } = body as { query?: unknown; extensions?: unknown });
  }
  const hash = (extensions as { persistedQuery?: { sha256Hash?: unknown } } | null)?.persistedQuery?.sha256Hash;
  return { ...(typeof query === 'string' && query ? { query } : {}), ...(typeof hash === 'string' ? { hash } : {}) };
}
