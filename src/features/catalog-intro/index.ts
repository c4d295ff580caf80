// Catalog introspection fields (`_module(name)`, `_dataObject(name)`; docs/catalogs.md): the
// catalog's modules and objects as the caller's role sees them. SDL in src/schema/catalog-intro-sdl.ts.
import type { SchemaFeature } from '../../pipeline/schema-feature.js';
import { attachCatalogIntro } from './resolvers.js';

export const catalogIntroFeature: SchemaFeature = {
  attach(schema, { index, scope, deps, version }) {
    attachCatalogIntro(schema, index, { ...(deps.roleSchemas ? { roleSchemas: deps.roleSchemas } : {}), scope, version });
  },
};

