// The "compiler" of an http source: a catalog function call (SPEC §4.4) -> one REST request.
// The statement text is the endpoint (`GET /orders/{id}`), which logs, traces and statement
// observers show; the argument values travel beside it, never inside the text.
import type { WriteNode } from '../../planner/ir/mutation.js';
import type { RootQuery } from '../../planner/ir/select.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { CompiledSql } from '../../sql/compiler.js';
import type { StatementCompiler } from '../types.js';
import type { Endpoint } from './endpoints.js';

export interface HttpStatement extends CompiledSql {
  readonly http: { readonly endpoint: Endpoint; readonly args: Readonly<Record<string, unknown>> };
}

export function isHttpStatement(stmt: CompiledSql): stmt is HttpStatement {
  return 'http' in stmt;
}

export class HttpCompiler implements StatementCompiler {
  readonly dialect = 'http';

  constructor(
    private readonly source: string,
    /** By the function's `@function(name:)`. */
    private readonly endpoints: ReadonlyMap<string, Endpoint>,
  ) {}

  /** A statement for `endpoint` with arguments by name (batched `@function_call` targets). */
  statement(endpoint: Endpoint, args: Readonly<Record<string, unknown>>): HttpStatement {
    return { sql: `${endpoint.method} ${endpoint.path}`, params: endpoint.params.map((p) => args[p.arg] ?? null), http: { endpoint, args } };
  }

  compileQuery(q: RootQuery): CompiledSql {
    if (q.kind !== 'call' || !q.call.name) throw new PublicError(ErrorCode.BadUserInput, `http source "${this.source}" serves functions only`);
    const endpoint = this.endpoints.get(q.call.name.join('.'));
    if (!endpoint) throw new PublicError(ErrorCode.BadUserInput, `http source "${this.source}" has no endpoint for function "${q.call.name.join('.')}"`);
    const values = q.call.args.map((a) => (a.kind === 'param' ? a.value : null));
    if (values.length !== endpoint.fn.args.length) throw new PublicError(ErrorCode.BadUserInput, `http source "${this.source}": skip_null_arg is not supported on http functions ("${endpoint.fn.name}")`);
    return this.statement(endpoint, Object.fromEntries(endpoint.fn.args.map((a, i) => [a.name, values[i]])));
  }

  compileWrite(_w: WriteNode): CompiledSql {
    throw new PublicError(ErrorCode.BadUserInput, `http source "${this.source}" has no tables to write; call its mutation functions`);
  }

  quoteIdentifier(name: string): string {
    return name;
  }

  vectorFromText(_placeholder: string): string {
    throw new PublicError(ErrorCode.BadUserInput, `http source "${this.source}" stores no vectors`);
  }
}
