// The served schema: rebuilt atomically when a source is loaded or unloaded. Requests in flight
// keep the schema they started with; listeners (Apollo's gateway hook) get each new one.
import { buildSchema, GraphQLScalarType, type GraphQLSchema, Kind, type ValueNode, valueFromASTUntyped } from 'graphql';
import { metrics } from '../shared/metrics.js';
import type { ResolvedCatalog } from '../catalog/model.js';
import { applyExtensions } from '../catalog/extension.js';
import type { AccessScope } from '../permissions/access.js';
import { buildAccessScope, NO_SYSTEM, type SystemSurface } from '../permissions/scope.js';
import { attachResolvers } from './resolvers/index.js';
import type { SchemaFeature } from './schema-feature.js';
import type { ResolverDeps } from './resolver-deps.js';
import { attachFederation } from '../federation/entities.js';
import type { SchemaExtension } from './schema-extension.js';
import { type Entity, entitiesOf, federationSdl, subgraphSdl } from '../federation/subgraph.js';
import { buildSurface, type SchemaIndex, type SystemFunction } from '../schema/surface.js';
import { findKind } from '../sources/kinds.js';

export interface ServedSchema {
  readonly schema: GraphQLSchema;
  readonly index: SchemaIndex;
  readonly sdl: string;
  /** What access decisions need to know of this schema (src/permissions/access.ts). */
  readonly scope: AccessScope;
  /** Increases with every rebuild; part of cache keys (parse/plan, results). */
  readonly version: number;
  /** Loaded extension sources not applied to this schema, and why (src/catalog/extension.ts). */
  readonly dormant: ReadonlyMap<string, string>;
  /** FEDERATION=true: the subgraph SDL `_service { sdl }` answers (src/federation/). */
  readonly subgraphSdl?: string;
}

/** `9007199254740993` as a number would be ...992: BigInt literals and values beyond 2^53 stay exact. */
function exactInteger(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}

/** A JSON literal with its integers exact at any depth (`{big: 12345678901234567890}` was ...7000). */
function exactJson(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (ast.kind) {
    case Kind.INT: return exactInteger(ast.value);
    case Kind.LIST: return ast.values.map((v) => exactJson(v, variables));
    case Kind.OBJECT: return Object.fromEntries(ast.fields.map((f) => [f.name.value, exactJson(f.value, variables)]));
    default: return valueFromASTUntyped(ast, variables);
  }
}

/**
 * The BigInt and JSON scalars of an SDL-built schema read literals exactly (issue 15): graphql-js's default
 * for a custom scalar parses an Int literal through a double. Values become exact decimal integers
 * (BigInt when beyond 2^53), answered as exact JSON numbers (src/shared/json.ts).
 */
function exactBigInt(schema: GraphQLSchema): GraphQLSchema {
  const big = schema.getType('BigInt');
  if (!(big instanceof GraphQLScalarType)) return schema;
  const digits = /^-?\d+$/;
  Object.assign(big, {
    parseLiteral: (ast: ValueNode, variables?: Record<string, unknown> | null) =>
      ast.kind === Kind.INT || (ast.kind === Kind.STRING && digits.test(ast.value)) ? exactInteger(ast.value) : valueFromASTUntyped(ast, variables),
    parseValue: (v: unknown) => (typeof v === 'string' && digits.test(v) ? exactInteger(v) : v),
  });
  const json = schema.getType('JSON');
  if (json instanceof GraphQLScalarType) Object.assign(json, { parseLiteral: exactJson });
  return schema;
}

export function compileSchema(
  catalogs: readonly ResolvedCatalog[], functions: readonly SystemFunction[], extraSdl: readonly string[] = [],
  federation?: { readonly exclude: ReadonlySet<string> }, extension?: SchemaExtension,
) {
  // Extension sources change other sources' objects before anything is built from them.
  const applied = applyExtensions(catalogs);
  const surface = buildSurface(applied.catalogs, functions, extraSdl, (source) => findKind(source.type)?.capabilities.h3 ?? false);
  const entities: ReadonlyMap<string, Entity> | undefined = federation ? entitiesOf(surface.index, federation.exclude) : undefined;
  const generated = entities ? `${surface.sdl}\n${federationSdl(entities)}` : surface.sdl;
  // Teams' code-first fields (extension modules), checked against this generated schema (a clash names both).
  const sdl = extension ? `${generated}\n${extension.sdl(generated)}` : generated;
  // Without locations: the served schema keeps its AST (astNode), and a token and a location object
  // per name of the generated SDL were ~3.4 MB of the idle server's heap (issue 30); nothing reads them.
  return { surface, entities, schema: exactBigInt(buildSchema(sdl, { noLocation: true })), dormant: applied.dormant };
}

export class SchemaService {
  private served: ServedSchema | undefined;
  private extension: SchemaExtension | undefined;
  private last: { catalogs: readonly ResolvedCatalog[]; deps: ResolverDeps } | undefined;
  private readonly listeners = new Set<(s: ServedSchema) => void>();

  constructor(
    private readonly functions: readonly SystemFunction[],
    private readonly extraSdl: readonly string[],
    /** Changes made to each new schema before anyone sees it (stored descriptions, seed 001). */
    private readonly decorate: (schema: GraphQLSchema) => void = () => undefined,
    private readonly system: SystemSurface = NO_SYSTEM,
    /** Serve the schema as an Apollo Federation 2 subgraph (FEDERATION=true). */
    private readonly federation = false,
    /** Features attached to every schema beside the generated fields (src/features/). */
    private readonly features: readonly SchemaFeature[] = [],
  ) {}

  get current(): ServedSchema {
    if (!this.served) throw new Error('schema not built yet');
    return this.served;
  }

  /**
   * Extension modules' fields (src/extensions/): merged into the schema now and into every schema
   * after it. Throws, keeping the schema served until now, when they clash with generated names.
   */
  extend(extension: SchemaExtension): ServedSchema {
    const before = this.extension;
    this.extension = extension;
    if (!this.last) throw new Error('schema not built yet');
    try {
      return this.rebuild(this.last.catalogs, this.last.deps);
    } catch (e) {
      this.extension = before;
      throw e;
    }
  }

  rebuild(catalogs: readonly ResolvedCatalog[], deps: ResolverDeps): ServedSchema {
    const { surface, schema, entities, dormant } = compileSchema(catalogs, this.functions, this.extraSdl, this.federation ? { exclude: this.system.sources } : undefined, this.extension);
    this.last = { catalogs, deps };
    this.decorate(schema);
    const version = (this.served?.version ?? 0) + 1;
    const scope = buildAccessScope(surface.index, this.system);
    const sub = entities ? subgraphSdl(schema, entities) : undefined;
    // Before attachResolvers, whose field guard then wraps `_service` and `_entities` like any field.
    if (entities) attachFederation(schema, surface.index, scope, entities, () => ({ sdl: sub!, version }), deps.roleSchemas);
    this.extension?.attach(schema, surface.index, version);
    attachResolvers(schema, surface.index, scope, deps, version, this.features);
    this.served = { schema, index: surface.index, sdl: surface.sdl, scope, version, dormant, ...(sub ? { subgraphSdl: sub } : {}) };
    metrics.schemaRebuilds.inc();
    for (const l of this.listeners) l(this.served);
    return this.served;
  }

  onUpdate(listener: (s: ServedSchema) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
