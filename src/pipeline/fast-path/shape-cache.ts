// Shapes per (schema, operation, role rules, @skip/@include variables): a repeated request walks
// its selection once (DESIGN.md §4). Apollo keeps one parsed document per query text and schema,
// so the operation node is a stable key; a new schema or a reloaded rule set is a new key object.
import type { FragmentDefinitionNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { Access } from '../../permissions/access.js';
import { type OperationShape, operationShape } from './shape.js';

const PER_KEY = 64;

export class ShapeCache {
  private readonly bySchema = new WeakMap<GraphQLSchema, WeakMap<OperationDefinitionNode, WeakMap<Access, Map<string, OperationShape | null>>>>();

  get(
    schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: Readonly<Record<string, FragmentDefinitionNode>>,
    variables: Readonly<Record<string, unknown>>, access: Access,
  ): OperationShape | undefined {
    const byOp = this.bySchema.get(schema) ?? new WeakMap();
    this.bySchema.set(schema, byOp);
    const byAccess = byOp.get(operation) ?? new WeakMap();
    byOp.set(operation, byAccess);
    let entries = byAccess.get(access);
    if (!entries) byAccess.set(access, (entries = new Map()));
    // Only @skip/@include read variables while selecting fields; other values do not change the shape.
    const body = operation.loc?.source.body;
    const key = body === undefined || /@(skip|include)\b/.test(body) ? JSON.stringify(variables) : '';
    const hit = entries.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const shape = operationShape(schema, operation, fragments, variables, access) ?? null;
    if (entries.size >= PER_KEY) entries.delete(entries.keys().next().value as string);
    entries.set(key, shape);
    return shape ?? undefined;
  }
}
