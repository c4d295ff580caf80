// The "compiler" of an http source: a catalog function call (SPEC §4.4) -> one REST request.
// The statement text is the endpoint (`GET /orders/{id}`), which logs, traces and statement
// observers show; the argument values travel beside it, never inside the text.
import type { WriteNode } from '../../planner/ir/mutation.js';
import type { FunctionExpr } from '../../planner/ir/expr.js';
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

/**
 * Argument values of a call planned from the function's `sql` (hugr's form): the planner turned each
 * `[name]` of the text into a parameter, in the order they appear; `[$catalog]` into a name part.
 */
function sqlArgs(endpoint: Endpoint, parts: NonNullable<FunctionExpr['sql']>): Record<string, unknown> {
  const fn = endpoint.fn;
  const names: string[] = [];
  for (const m of fn.sql!.matchAll(/\[(\$?)([A-Za-z_][A-Za-z0-9_.]*)\]/g)) {
    const [, dollar, name] = m as unknown as [string, string, string];
    if (dollar ? name === 'catalog' || name.startsWith('auth.') : fn.args.some((a) => a.name === name)) names.push(dollar ? '' : name);
  }
  const values = parts.filter((p) => typeof p !== 'string');
  const args: Record<string, unknown> = {};
  names.forEach((name, i) => {
    const p = values[i];
    if (name && p && 'kind' in p && p.kind === 'param') args[name] = p.value;
  });
  return args;
}

export class HttpCompiler implements StatementCompiler {
  readonly dialect = 'http';

  constructor(
    private readonly source: string,
    /** By the function's functionKey. */
    private readonly endpoints: ReadonlyMap<string, Endpoint>,
    /** The DuckDB compiler for the source's views (hugr's form), when it has any. */
    private readonly views?: StatementCompiler,
  ) {}

  /** A statement for `endpoint` with arguments by name (batched `@function_call` targets). */
  statement(endpoint: Endpoint, args: Readonly<Record<string, unknown>>): HttpStatement {
    return { sql: `${endpoint.method} ${endpoint.path}`, params: endpoint.params.map((p) => args[p.arg] ?? null), http: { endpoint, args } };
  }

  /** The endpoint of a planned call, or undefined when the query is not a call of one (a view's rows). */
  endpointOf(q: RootQuery): Endpoint | undefined {
    return q.kind === 'call' && q.call.function ? this.endpoints.get(q.call.function) : undefined;
  }

  compileQuery(q: RootQuery, timezone?: string): CompiledSql {
    const endpoint = this.endpointOf(q);
    if (!endpoint && this.views) return this.views.compileQuery(q, timezone);
    if (q.kind !== 'call' || !endpoint) throw new PublicError(ErrorCode.BadUserInput, `http source "${this.source}" serves functions only`);
    if (q.call.sql) return this.statement(endpoint, sqlArgs(endpoint, q.call.sql));
    const values = q.call.args.map((a) => (a.kind === 'param' ? a.value : null));
    if (values.length !== endpoint.fn.args.length) throw new PublicError(ErrorCode.BadUserInput, `http source "${this.source}": skip_null_arg is not supported on http functions ("${endpoint.fn.name}")`);
    return this.statement(endpoint, Object.fromEntries(endpoint.fn.args.map((a, i) => [a.name, values[i]])));
  }

  compileWrite(_w: WriteNode): CompiledSql {
    throw new PublicError(ErrorCode.BadUserInput, `http source "${this.source}" has no tables to write; call its mutation functions`);
  }

  quoteIdentifier(name: string): string {
    return this.views ? this.views.quoteIdentifier(name) : name;
  }

  vectorFromText(_placeholder: string): string {
    throw new PublicError(ErrorCode.BadUserInput, `http source "${this.source}" stores no vectors`);
  }
}
