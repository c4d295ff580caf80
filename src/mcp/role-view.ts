// What one caller may see of the served schema, as the MCP tools talk about it: modules, data
// objects, functions and fields, each with the GraphQL path that reaches it. Built from the role's
// own schema (src/permissions/schema-filter.ts, the one introspection answers from), so a hidden or
// disabled object is not in it and no tool can name it: not in an answer, a suggestion or an error.
import { type GraphQLField, type GraphQLObjectType, type GraphQLSchema, getNamedType, isObjectType } from 'graphql';
import { suggestionList } from 'graphql/jsutils/suggestionList.js';
import { accessOf } from '../permissions/access.js';
import type { RoleSchemas } from '../permissions/schema-filter.js';
import type { RequestContext } from '../executor/request-context.js';
import type { SchemaService } from '../pipeline/schema.service.js';
import type { DataRootField, SchemaIndex } from '../schema/surface.js';

export type EntryKind = 'module' | 'object' | 'function' | 'field';

/** Where an object or function is asked: the GraphQL root and the module fields down to it. */
export interface Placement {
  readonly root: 'query' | 'mutation';
  /** Module fields from the root (`['core', 'catalog']`; `['function', 'shop_x']` for a function). */
  readonly path: readonly string[];
  readonly field: GraphQLField<unknown, unknown>;
  readonly parent: GraphQLObjectType;
}

export interface Entry {
  readonly kind: EntryKind;
  /** Object: its type name; module: its dotted path; function: its dotted path; field: `type.field`. */
  readonly name: string;
  readonly description: string;
  /** Module (dotted) it belongs to, '' at the root. */
  readonly module: string;
  /** Object: its root fields by kind (list, by_pk, aggregation, ...); function: its one field. */
  readonly places: ReadonlyMap<string, Placement>;
  /** Field entries: the field's type, as GraphQL writes it. */
  readonly type?: string;
}

const firstLine = (s: string | undefined | null): string => (s ?? '').trim().split('\n')[0]!.trim();

export class RoleView {
  readonly entries: readonly Entry[];
  private readonly byName = new Map<string, Entry>();

  constructor(
    /** The role's schema: what its introspection shows. */
    readonly schema: GraphQLSchema,
    readonly index: SchemaIndex,
  ) {
    const entries = new Map<string, Entry & { places: Map<string, Placement> }>();
    const add = (e: Entry & { places: Map<string, Placement> }) => {
      const key = `${e.kind}:${e.name}`;
      const had = entries.get(key);
      if (had) for (const [k, p] of e.places) had.places.set(k, p);
      else entries.set(key, e);
    };
    const walk = (type: GraphQLObjectType, root: 'query' | 'mutation', path: readonly string[]) => {
      for (const field of Object.values(type.getFields())) {
        const coord = `${type.name}.${field.name}`;
        const named = getNamedType(field.type);
        const module = path.filter((p) => p !== 'function').join('.');
        if (this.index.modules.has(coord)) {
          if (field.name === 'jq' || !isObjectType(named)) continue;
          const next = [...path, field.name];
          const dotted = next.filter((p) => p !== 'function').join('.');
          if (field.name !== 'function' && root === 'query') {
            add({ kind: 'module', name: dotted, description: firstLine(field.description), module, places: new Map() });
          }
          walk(named, root, next);
          continue;
        }
        const data: DataRootField | undefined = this.index.roots.get(coord);
        const place: Placement = { root, path, field, parent: type };
        if (data) {
          const obj = this.index.objects.get(data.object);
          add({ kind: 'object', name: data.object, description: firstLine(obj?.description ?? named.description), module, places: new Map([[data.kind, place]]) });
          continue;
        }
        if (this.index.catalogFunctions.has(coord) || this.index.functions.has(coord)) {
          const name = [...path.filter((p) => p !== 'function'), field.name].join('.');
          add({ kind: 'function', name, description: firstLine(field.description), module, places: new Map([[root === 'mutation' ? 'mutation_function' : 'function', place]]) });
        }
      }
    };
    const query = schema.getQueryType();
    const mutation = schema.getMutationType();
    if (query) walk(query, 'query', []);
    if (mutation) walk(mutation, 'mutation', []);
    // Fields of every object the role sees (search finds "country" on customers).
    for (const e of [...entries.values()]) {
      if (e.kind !== 'object') continue;
      const t = schema.getType(e.name);
      if (!isObjectType(t)) continue;
      for (const f of Object.values(t.getFields())) {
        if (f.name.startsWith('_')) continue;
        add({ kind: 'field', name: `${e.name}.${f.name}`, description: firstLine(f.description), module: e.module, places: new Map(), type: String(f.type) });
      }
    }
    this.entries = [...entries.values()];
    for (const e of this.entries) if (!this.byName.has(e.name)) this.byName.set(e.name, e);
  }

  /** An object, module or function by any name a model may use for it (type name, root field, path). */
  find(name: string): Entry | undefined {
    const n = name.trim().replace(/^(query|mutation)\s*[.:]\s*/i, '');
    const direct = this.byName.get(n) ?? this.byName.get(n.replace(/^function\./, ''));
    if (direct && direct.kind !== 'field') return direct;
    // A root field's name or path (`shop_customers_aggregation`, `core.catalog.types`).
    const last = n.split('.').pop()!;
    for (const e of this.entries) {
      if (e.kind !== 'object' && e.kind !== 'function') continue;
      for (const p of e.places.values()) {
        if (p.field.name === last && [...p.path.filter((x) => x !== 'function'), last].join('.') === n.replace(/^function\./, '')) return e;
      }
    }
    return undefined;
  }

  /** Names close to `name` among what the role sees (for "did you mean"), graphql-js's own ranking. */
  suggest(name: string, kinds: readonly EntryKind[] = ['object', 'module', 'function'], max = 5): string[] {
    const names = this.entries.filter((e) => kinds.includes(e.kind)).map((e) => e.name);
    const want = name.toLowerCase();
    const containing = names.filter((n) => n.toLowerCase().includes(want) || want.includes(n.toLowerCase()));
    return [...new Set([...suggestionList(name, names), ...containing])].slice(0, max);
  }

  /** The role may write: its schema has data mutations or mutation functions. */
  get canWrite(): boolean {
    return this.entries.some((e) => [...e.places.values()].some((p) => p.root === 'mutation'));
  }
}

/** The caller's view, rebuilt only when the served schema or the role's rules change. */
export class RoleViews {
  private readonly cache = new WeakMap<GraphQLSchema, RoleView>();

  constructor(
    private readonly schemas: SchemaService,
    private readonly roleSchemas: RoleSchemas,
  ) {}

  of(caller: RequestContext): RoleView {
    const served = this.schemas.current;
    const schema = this.roleSchemas.get(served.schema, served.version, accessOf(caller.access, served.scope));
    let view = this.cache.get(schema);
    if (!view) this.cache.set(schema, (view = new RoleView(schema, served.index)));
    return view;
  }
}
