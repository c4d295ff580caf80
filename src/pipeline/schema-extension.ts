// The port through which teams' code-first modules join the served schema (issue 20). The schema
// service owns it and the extensions module implements it, so the served schema names no part of
// src/extensions/.
import type { GraphQLSchema } from 'graphql';
import type { SchemaIndex } from '../schema/surface.js';

/** What the schema service asks of the extensions at each rebuild (src/pipeline/schema.service.ts). */
export interface SchemaExtension {
  /** SDL to add to a schema whose generated part is `generatedSdl`; throws on a name clash. */
  sdl(generatedSdl: string): string;
  /** Sets the extensions' resolvers on the built schema (before svc's field guard wraps every field). */
  attach(schema: GraphQLSchema, index: SchemaIndex, version: number): void;
}
