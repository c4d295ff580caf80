// The code-first half of an extension (issue 20 item 2): the GraphQL types and fields a team's
// resolvers declare with @nestjs/graphql's decorators, built by Nest's own GraphQLSchemaFactory.
// A resolver of a generated type is written `@Resolver('shop_customers')`: the factory knows only
// classes, so such a type is given a stub class of that name, and the fields it gets are the
// extension's fields of the generated type.
import type { INestApplicationContext, Type } from '@nestjs/common';
import { GraphQLSchemaFactory, ObjectType, RESOLVER_NAME_METADATA, TypeMetadataStorage } from '@nestjs/graphql';
import { type GraphQLSchema, printSchema } from 'graphql';

export interface CodeFirst {
  readonly schema: GraphQLSchema;
  /** Types named by a string in @Resolver('name'): fields added to a type defined elsewhere (a generated one). */
  readonly extended: ReadonlySet<string>;
  readonly sdl: string;
}

const stubs = new Map<string, Type>();

/** A class standing for a generated type, registered once per name (the metadata store is global). */
function stubFor(name: string): Type {
  let stub = stubs.get(name);
  if (!stub) {
    stub = { [name]: class {} }[name]! as Type;
    ObjectType(name)(stub);
    stubs.set(name, stub);
  }
  return stub;
}

const registered = new WeakSet<Type>();

export async function buildCodeFirst(app: Pick<INestApplicationContext, 'get'>, resolvers: readonly Type[]): Promise<CodeFirst | undefined> {
  if (!resolvers.length) return undefined;
  const extended = new Set<string>();
  for (const r of resolvers) {
    const named = Reflect.getMetadata(RESOLVER_NAME_METADATA, r) as unknown;
    // @Resolver() of root fields has no name; @Resolver(() => Own) is a code-first type of its own.
    if (typeof named !== 'string') continue;
    if (TypeMetadataStorage.getObjectTypesMetadata().some((o) => o.name === named && !stubs.has(named))) continue;
    extended.add(named);
    if (!registered.has(r)) {
      registered.add(r);
      const stub = stubFor(named);
      TypeMetadataStorage.addResolverMetadata({ target: r, typeFn: () => stub, isAbstract: false });
    }
  }
  const factory = app.get(GraphQLSchemaFactory, { strict: false });
  const schema = await factory.create([...resolvers], { orphanedTypes: [...extended].map(stubFor) } as never);
  return { schema, extended, sdl: printSchema(schema) };
}
