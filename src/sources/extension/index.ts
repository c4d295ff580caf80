// The `extension` kind (SPEC §3.1): SDL that changes other sources' objects; no database of its own.
import type { SourceKind } from '../kind.js';
import { ExtensionSource } from './source.js';

export const extension = {
  type: 'extension',
  open: async (spec) => new ExtensionSource(spec.name),
  capabilities: {
    catalog: { tableFunctions: true },
    h3: false,
    catalogOptional: false,
    extendsOthers: true,
    attachesFile: false,
  },
} as const satisfies SourceKind<'extension'>;
