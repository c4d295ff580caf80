// What one role may see and do (SPEC §7), as the planner, the resolvers and introspection ask it.
// Rows are matched on (parent type, field): exact > (type, *) > (*, field) > (*, *); the winning
// row decides. Object-wide rows (`data-object:<op>`) follow the object wherever it appears.
import { ErrorCode, PublicError } from '../shared/errors.js';
import { substitute } from './placeholders.js';

export interface PermissionRow {
  readonly type_name: string;
  readonly field_name: string;
  readonly hidden: boolean;
  readonly disabled: boolean;
  readonly filter: Record<string, unknown> | null;
  readonly data: Record<string, unknown> | null;
}

export type ObjectOp = 'query' | 'insert' | 'update' | 'delete';

export const forbidden = () => new PublicError(ErrorCode.Forbidden, 'forbidden');

let generation = 0;

export class RoleAccess {
  private readonly exact = new Map<string, PermissionRow>();
  /** Distinguishes a reloaded rule set from the one before it (plan cache keys). */
  readonly generation = ++generation;

  constructor(
    readonly role: string,
    readonly rows: readonly PermissionRow[],
  ) {
    for (const r of rows) this.exact.set(`${r.type_name}\u0000${r.field_name}`, r);
  }

  /** No rows at all: everything allowed and visible (the common case takes no per-field work). */
  get unrestricted(): boolean {
    return this.rows.length === 0;
  }

  rule(type: string, field: string): PermissionRow | undefined {
    const get = (t: string, f: string) => this.exact.get(`${t}\u0000${f}`);
    return get(type, field) ?? get(type, '*') ?? get('*', field) ?? get('*', '*');
  }

  /** An object-wide row for `op` on the object type `name` (exact name before `*`). */
  objectRule(op: ObjectOp, name: string): PermissionRow | undefined {
    return this.exact.get(`data-object:${op}\u0000${name}`) ?? this.exact.get(`data-object:${op}\u0000*`);
  }

  /** A field is unusable when its row disables it, or when it returns an object the role may not read. */
  denied(type: string, field: string, returns?: string): boolean {
    if (this.unrestricted) return false;
    if (this.rule(type, field)?.disabled) return true;
    return returns !== undefined && !!this.objectRule('query', returns)?.disabled;
  }

  hidden(type: string, field: string): boolean {
    const r = this.rule(type, field);
    return !!r && (r.hidden || r.disabled);
  }

  /** The row filter for reading `object` (with placeholders filled from `vars`). */
  readFilter(object: string, vars: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
    const f = this.objectRule('query', object)?.filter;
    return f ? (substitute(f, vars) as Record<string, unknown>) : undefined;
  }

  /** The filter a write of `op` must satisfy; update and delete fall back to the read filter. */
  writeFilter(op: 'update' | 'delete', object: string, vars: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
    const f = this.objectRule(op, object)?.filter ?? this.objectRule('query', object)?.filter;
    return f ? (substitute(f, vars) as Record<string, unknown>) : undefined;
  }

  /** Object-wide values stamped over every insert/update of `object`, nested inserts included. */
  objectData(op: 'insert' | 'update', object: string, vars: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const data = this.objectRule(op, object)?.data;
    return data ? (substitute(data, vars) as Record<string, unknown>) : {};
  }

  /** Values stamped by the mutation field's own row (e.g. Mutation.insert_orders). */
  fieldData(type: string, field: string, vars: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const data = this.rule(type, field)?.data;
    return data ? (substitute(data, vars) as Record<string, unknown>) : {};
  }

  /** `disabled` on `data-object:<op>` refuses that operation on the object everywhere. */
  objectDenied(op: ObjectOp, object: string): boolean {
    return !this.unrestricted && !!this.objectRule(op, object)?.disabled;
  }

  /** The filter row on a query field itself (e.g. Query.shop_orders). */
  fieldFilter(type: string, field: string, vars: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
    const f = this.exact.get(`${type}\u0000${field}`)?.filter ?? this.exact.get(`${type}\u0000*`)?.filter;
    return f ? (substitute(f, vars) as Record<string, unknown>) : undefined;
  }

  /** `_endpoints` rows: the longest matching path prefix decides. */
  endpointDenied(path: string): boolean {
    let best: PermissionRow | undefined;
    for (const r of this.rows) {
      if (r.type_name !== '_endpoints' || !path.startsWith(r.field_name)) continue;
      if (!best || r.field_name.length > best.field_name.length) best = r;
    }
    return !!best?.disabled;
  }
}

export const UNRESTRICTED = new RoleAccess('admin', []);
