// Merges the extensions' code-first fields into each served schema (issue 20 item 2): on start and
// again on every schema swap (a source loaded or unloaded). A name an extension shares with the
// generated schema is an error naming both; fields of a generated type that is not served right now
// (its source unloaded) wait until it is back.
import {
  type GraphQLField, type GraphQLFieldResolver, type GraphQLNamedType, type GraphQLSchema, isIntrospectionType, isObjectType, isScalarType, isSpecifiedScalarType,
  Kind, parse, printType,
} from 'graphql';
import type { RequestContext } from '../executor/request-context.js';
import type { FieldStages, RootFieldTarget } from '../pipeline/field-stage.js';
import { collectReads } from '../pipeline/read-sinks.js';
import type { SchemaExtension } from '../pipeline/schema-extension.js';
import { markExtensionField, PARENT_KEY_PREFIX } from '../planner/extension-fields.js';
import type { SchemaIndex } from '../schema/surface.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { BoundField } from './bind.js';
import type { CodeFirst } from './code-first.js';

const ROOTS = new Set(['Query', 'Mutation']);

/** Object and input types (with their fields) and other named types the generated SDL defines. */
function generatedNames(sdl: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const d of parse(sdl, { noLocation: true }).definitions) {
    if (!('name' in d) || !d.name || d.kind === Kind.DIRECTIVE_DEFINITION) continue;
    const fields = out.get(d.name.value) ?? new Set<string>();
    if ('fields' in d) for (const f of d.fields ?? []) fields.add(f.name.value);
    out.set(d.name.value, fields);
  }
  return out;
}

/** The row a generated parent resolved to, with its key fields under their own names. */
export function parentRow(row: unknown): unknown {
  if (!row || typeof row !== 'object') return row;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k.startsWith(PARENT_KEY_PREFIX) ? k.slice(PARENT_KEY_PREFIX.length) : k] = v;
  return out;
}

export class ExtensionSchema implements SchemaExtension {
  private readonly origins = new Map<string, string>();

  constructor(
    private readonly codeFirst: CodeFirst,
    private readonly fields: readonly BoundField[],
    /** svc's field stages (result cache, @stats, teams' own): around extension root fields as around generated ones. */
    private readonly stages: FieldStages,
  ) {
    for (const f of fields) this.origins.set(f.coordinate, f.origin);
  }

  private origin(type: string, field: string): string {
    return this.origins.get(`${type}.${field}`) ?? 'an extension module';
  }

  sdl(generatedSdl: string): string {
    const generated = generatedNames(generatedSdl);
    const parts: string[] = [];
    for (const type of Object.values(this.codeFirst.schema.getTypeMap()) as GraphQLNamedType[]) {
      if (isIntrospectionType(type) || isSpecifiedScalarType(type)) continue;
      const name = type.name;
      const mine = isObjectType(type) ? Object.keys(type.getFields()) : [];
      if (ROOTS.has(name) || this.codeFirst.extended.has(name)) {
        const theirs = generated.get(name);
        // The generated type is not served now (its source is unloaded): its extension fields wait.
        if (!theirs) continue;
        for (const f of mine) {
          if (theirs.has(f)) throw new PublicError(ErrorCode.ConfigInvalid, `extension field "${name}.${f}" (${this.origin(name, f)}) clashes with the generated field "${name}.${f}"`);
        }
        parts.push(printType(type).replace(/^type /, 'extend type '));
        continue;
      }
      if (generated.has(name)) {
        // A scalar of the same name (DateTime, JSON) is the generated one, used as it is.
        if (isScalarType(type)) continue;
        throw new PublicError(ErrorCode.ConfigInvalid, `extension type "${name}" clashes with the generated type "${name}" (rename the @ObjectType/@InputType, or extend the generated type with @Resolver('${name}'))`);
      }
      parts.push(printType(type));
    }
    return parts.join('\n\n');
  }

  attach(schema: GraphQLSchema, index: SchemaIndex, version: number): void {
    for (const bound of this.fields) {
      const [typeName, fieldName] = bound.coordinate.split('.') as [string, string];
      const type = schema.getType(typeName);
      if (!isObjectType(type)) continue;
      const field = type.getFields()[fieldName] as GraphQLField<unknown, unknown> | undefined;
      if (!field) continue;
      field.resolve = (ROOTS.has(typeName) ? this.staged(bound, typeName, version) : bound.resolve) as GraphQLField<unknown, unknown>['resolve'];
      const object = index.objects.get(typeName);
      if (object) markExtensionField(field, object.pk);
    }
  }

  /**
   * A root field inside the field stages, like a generated one: the result cache (with the
   * method's `@SvcCache()` rule as its default), @stats, teams' stages. What the method reads
   * through a typed client becomes the cached answer's tags.
   */
  private staged(bound: BoundField, typeName: string, version: number): GraphQLFieldResolver<unknown, RequestContext> {
    const target: RootFieldTarget = { kind: typeName === 'Mutation' ? 'write' : 'read', ...(bound.cache ? { cacheDefault: bound.cache } : {}), tags: [], schemaVersion: version };
    return (source, args, ctx, info) =>
      this.stages.run({ source, args: args as Record<string, unknown>, ctx, info, target, reads: new Set() }, (call) =>
        collectReads(call.reads, async () => bound.resolve(call.source, call.args, call.ctx, call.info)));
  }
}
