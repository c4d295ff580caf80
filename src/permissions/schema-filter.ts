// Introspection per role (SPEC §7): a role sees only what it may use. Hidden and disabled fields
// are removed, then every type nothing reachable refers to any more. Built from the printed
// schema, so it has no resolvers: it answers introspection-only operations.
import {
  buildASTSchema, type DefinitionNode, type DocumentNode, type FieldDefinitionNode, type GraphQLSchema, type InputValueDefinitionNode,
  Kind, parse, printSchema, type TypeNode,
} from 'graphql';
import type { Access } from './access.js';

const named = (t: TypeNode): string => (t.kind === Kind.NAMED_TYPE ? t.name.value : named(t.type));

type WithFields = DefinitionNode & { name: { value: string }; fields?: readonly (FieldDefinitionNode | InputValueDefinitionNode)[] };

/**
 * The access service decides per (type, field); it knows which object every type shows (filters,
 * inputs, aggregations, buckets), so a hidden or disabled field or object is absent from all of
 * them (issue 14 item 10).
 */
function visibleFields(def: WithFields, access: Access, known: Set<string>): (FieldDefinitionNode | InputValueDefinitionNode)[] {
  const type = def.name.value;
  return (def.fields ?? []).flatMap((f) => {
    const returns = named(f.type);
    if (!known.has(returns)) return [];
    if (access.hidden(type, f.name.value)) return [];
    if (access.fieldDenied(type, f.name.value, returns)) return [];
    if (f.kind !== Kind.FIELD_DEFINITION || !f.arguments?.length) return [f];
    // An argument whose input type lost every field the role sees (a filter of hidden columns, an
    // order of hidden fields) goes too; a field that cannot be called without it goes with it.
    const args = f.arguments.filter((a) => known.has(named(a.type)));
    if (args.length === f.arguments.length) return [f];
    if (f.arguments.some((a) => !known.has(named(a.type)) && a.type.kind === Kind.NON_NULL_TYPE)) return [];
    return [{ ...f, arguments: args }];
  });
}

const BUILTIN = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);

export function filterSchema(schema: GraphQLSchema, access: Access): GraphQLSchema {
  // Without locations, as the served schema (src/pipeline/schema.service.ts): a role's schema is kept too.
  const doc = parse(printSchema(schema), { noLocation: true });
  let defs = doc.definitions as readonly DefinitionNode[];
  // Removing a field can empty a type, and removing a type removes the fields that return it.
  for (let changed = true; changed; ) {
    changed = false;
    const known = new Set<string>([...BUILTIN, ...defs.flatMap((d) => ('name' in d && d.name ? [d.name.value] : []))]);
    const next: DefinitionNode[] = [];
    for (const d of defs) {
      if (d.kind === Kind.UNION_TYPE_DEFINITION) {
        // A union (federation's _Entity) keeps the members the role still sees; none left, it goes.
        const types = (d.types ?? []).filter((t) => known.has(t.name.value));
        if (types.length !== (d.types?.length ?? 0)) changed = true;
        if (types.length) next.push({ ...d, types });
        continue;
      }
      if (d.kind !== Kind.OBJECT_TYPE_DEFINITION && d.kind !== Kind.INPUT_OBJECT_TYPE_DEFINITION) {
        next.push(d);
        continue;
      }
      const fields = visibleFields(d as WithFields, access, known);
      if (fields.length !== (d.fields?.length ?? 0) || fields.some((f, i) => f !== d.fields?.[i])) changed = true;
      if (!fields.length && d.name.value !== 'Query') continue;
      next.push({ ...d, fields } as DefinitionNode);
    }
    defs = dropUnreachable(next);
    if (defs.length !== next.length) changed = true;
  }
  return buildASTSchema({ kind: Kind.DOCUMENT, definitions: defs } as DocumentNode);
}

function dropUnreachable(defs: DefinitionNode[]): DefinitionNode[] {
  const byName = new Map(defs.flatMap((d) => ('name' in d && d.name ? [[d.name.value, d] as const] : [])));
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || !byName.has(name)) return;
    seen.add(name);
    const d = byName.get(name) as WithFields;
    if (d.kind === Kind.UNION_TYPE_DEFINITION) for (const t of d.types ?? []) visit(t.name.value);
    for (const f of d.fields ?? []) {
      visit(named(f.type));
      for (const a of (f as FieldDefinitionNode).arguments ?? []) visit(named(a.type));
    }
  };
  ['Query', 'Mutation', 'Subscription'].forEach(visit);
  return defs.filter((d) => !('name' in d && d.name) || seen.has(d.name.value) || d.kind === Kind.DIRECTIVE_DEFINITION);
}

/** Filtered schemas are rebuilt only when the role's rows or the served schema change. */
export class RoleSchemas {
  private readonly cache = new Map<string, GraphQLSchema>();

  get(schema: GraphQLSchema, version: number, access: Access): GraphQLSchema {
    if (access.unrestricted) return schema;
    const key = `${access.role}:${version}:${access.rows.length}`;
    let s = this.cache.get(key);
    if (!s || this.cacheOwner.get(key) !== access) {
      s = filterSchema(schema, access);
      this.cache.set(key, s);
      this.cacheOwner.set(key, access);
    }
    return s;
  }

  private readonly cacheOwner = new Map<string, Access>();

  clear(): void {
    this.cache.clear();
    this.cacheOwner.clear();
  }
}
