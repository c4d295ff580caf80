// Descriptions written by the schema management mutations (seed 001 `_schema_update_*_desc`).
// They are kept in the `_schema_*` tables (marked summarized) and mirrored here, so every rebuilt
// schema shows them in introspection and a reload does not overwrite them.
import { type GraphQLSchema, isEnumType, isInputObjectType, isObjectType } from 'graphql';

export interface Description {
  readonly description: string;
  readonly long_description: string;
}

export class Descriptions {
  readonly types = new Map<string, Description>();
  /** `Type.field` -> description. */
  readonly fields = new Map<string, Description>();
  /** Dotted module path -> description (shown on the module's root types). */
  readonly modules = new Map<string, Description>();
  readonly catalogs = new Map<string, Description>();

  clear(): void {
    for (const m of [this.types, this.fields, this.modules, this.catalogs]) m.clear();
  }

  /** Puts the stored descriptions on a freshly built schema, before anyone sees it. */
  apply(schema: GraphQLSchema): void {
    for (const [name, d] of this.types) {
      const t = schema.getType(name);
      if (t) t.description = d.description;
    }
    for (const [coord, d] of this.fields) {
      const [type, field] = coord.split('.') as [string, string];
      const t = schema.getType(type);
      if (isObjectType(t) || isInputObjectType(t)) {
        const f = t.getFields()[field];
        if (f) f.description = d.description;
      } else if (isEnumType(t)) {
        const v = t.getValue(field);
        if (v) v.description = d.description;
      }
    }
    for (const [module, d] of this.modules) {
      // Module root types are named by path and root (SPEC §3.2 `_module_<path>_query`, ...).
      for (const root of ['query', 'mutation', 'function', 'mut_function']) {
        const t = schema.getType(`_module_${module.replaceAll('.', '_')}_${root}`);
        if (t) t.description = d.description;
      }
    }
  }
}
