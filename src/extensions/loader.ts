// Finds the code-first resolvers of the application's modules (a team's, named in EXTENSIONS, or
// given to createApp) once the node has started (its sources loaded), and merges their fields into the served schema.
// A clash fails the start with a message naming both fields. Imported by ExtensionsModule only
// when the application has modules of its own (extensions.module.ts).
import { Inject, Injectable, type Type } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, RESOLVER_TYPE_METADATA } from '@nestjs/graphql';
import { FieldStages } from '../pipeline/field-stage.js';
import { SchemaService } from '../pipeline/schema.service.js';
import { LOGGER, type Logger } from '../shared/logger.js';
import { NodeBoot } from '../system/system.module.js';
import { bindResolver } from './bind.js';
import { buildCodeFirst } from './code-first.js';
import { ExtensionSchema, parentRow } from './extension-schema.js';

@Injectable()
export class ExtensionsLoader {
  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(ModuleRef) private readonly modules: ModuleRef,
    @Inject(SchemaService) private readonly schemas: SchemaService,
    @Inject(FieldStages) private readonly stages: FieldStages,
    @Inject(LOGGER) private readonly log: Logger,
    @Inject(NodeBoot) boot: NodeBoot,
  ) {
    // Once the sources are loaded: the fields are checked against the schema that serves them.
    boot.afterStart(() => this.merge());
  }

  private async merge(): Promise<void> {
    const found = this.discovery.getProviders().filter((w) => w.instance && w.metatype && Reflect.hasMetadata(RESOLVER_TYPE_METADATA, w.metatype));
    if (!found.length) return;
    const classes = found.map((w) => w.metatype as Type);
    const codeFirst = await buildCodeFirst(this.modules, classes);
    if (!codeFirst) return;
    const fields = found.flatMap((w) => bindResolver(w.instance as object, () => parentRow));
    this.schemas.extend(new ExtensionSchema(codeFirst, fields, this.stages));
    this.log.info({ resolvers: classes.map((c) => c.name), fields: fields.map((f) => f.coordinate) }, 'svc: extension fields merged into the schema');
  }
}

export { GraphQLSchemaBuilderModule };
