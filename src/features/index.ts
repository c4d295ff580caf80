// Features served beside the generated fields, each in its own folder: the schema service attaches
// them to every schema it builds (src/pipeline/schema-feature.ts). Federation (src/federation/) and
// extension modules (src/extensions/) are features too, with hooks of their own in the schema service.
import type { SchemaFeature } from '../pipeline/schema-feature.js';
import { catalogIntroFeature } from './catalog-intro/index.js';
import { h3Feature } from './h3/index.js';

export const SCHEMA_FEATURES: readonly SchemaFeature[] = [h3Feature, catalogIntroFeature];
