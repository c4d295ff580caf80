// The extensions of the served schema (docs/extending.md): the code-first resolvers of the
// application's own modules (a team's, named in EXTENSIONS, or given to createApp), merged once the
// node has started (src/extensions/loader.ts). Without such modules no resolver can exist, and the
// loader with @nestjs/graphql (~3.7 MB of V8 heap, issue 30) is not even imported.
import { type DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';

@Module({})
export class ExtensionsModule {
  static async forApplication(ownModules: boolean): Promise<DynamicModule> {
    if (!ownModules) return { module: ExtensionsModule };
    const { ExtensionsLoader, GraphQLSchemaBuilderModule } = await import('./loader.js');
    return { module: ExtensionsModule, imports: [DiscoveryModule, GraphQLSchemaBuilderModule], providers: [ExtensionsLoader] };
  }
}
