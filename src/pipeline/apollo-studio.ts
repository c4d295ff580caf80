// Apollo Studio (issue 20 item 5): usage and schema reporting through Apollo Server's own plugins,
// only when APOLLO_KEY and APOLLO_GRAPH_REF are set (never by default: without them the plugins
// Apollo would install by itself from the environment are disabled explicitly). Field-level traces,
// reported to Studio or returned inline to a federation gateway (`ftv1`), show a role only what it
// may see: an operation that touches a field the role cannot see is reported without its fields.
// The reporting plugins are imported only when they are used (issue 30: with Apollo's protobuf
// definitions they are ~1.7 MB of heap that a server without Studio or federation would carry).
import type { ApolloConfigInput, ApolloServerPlugin, GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled, ApolloServerPluginSchemaReportingDisabled, ApolloServerPluginUsageReportingDisabled } from '@apollo/server/plugin/disabled';
import { getNamedType, type GraphQLSchema, TypeInfo, visit, visitWithTypeInfo } from 'graphql';
import type { Config } from '../config/schema.js';
import type { RequestContext } from '../executor/request-context.js';
import { accessOf } from '../permissions/access.js';
import type { SchemaService } from './schema.service.js';
import type { Logger } from '../shared/logger.js';

type Resolved = GraphQLRequestContextDidResolveOperation<RequestContext>;

/** True when every field the operation selects is one the caller's role may see (SPEC §7). */
export function visibleToRole(rc: Resolved, schemas: SchemaService): boolean {
  if (rc.contextValue.access.unrestricted) return true;
  const served = schemas.current;
  const access = accessOf(rc.contextValue.access, served.scope);
  const info = new TypeInfo(rc.schema as GraphQLSchema);
  let visible = true;
  visit(rc.document, visitWithTypeInfo(info, {
    Field(node) {
      const parent = info.getParentType();
      const def = info.getFieldDef();
      if (!parent || !def || node.name.value.startsWith('__')) return;
      const returns = getNamedType(def.type).name;
      if (access.hidden(parent.name, def.name) || access.fieldDenied(parent.name, def.name, returns)) visible = false;
    },
  }));
  return visible;
}

/**
 * Apollo's inline trace plugin (federation `ftv1`), with the trace dropped from the answer when the
 * operation touches a field the role cannot see: the trace would name it, its type and its error.
 */
async function roleAwareInlineTrace(schemas: SchemaService): Promise<ApolloServerPlugin<RequestContext>> {
  const { ApolloServerPluginInlineTrace } = await import('@apollo/server/plugin/inlineTrace');
  const inner = ApolloServerPluginInlineTrace() as ApolloServerPlugin<RequestContext>;
  return {
    serverWillStart: inner.serverWillStart!.bind(inner),
    async requestDidStart(rc) {
      const listener = await inner.requestDidStart?.(rc);
      if (!listener) return undefined;
      let shown = true;
      return {
        ...listener,
        async didResolveOperation(r) {
          shown = visibleToRole(r, schemas);
        },
        async willSendResponse(r) {
          await listener.willSendResponse?.(r);
          const body = r.response.body;
          if (!shown && body.kind === 'single') delete body.singleResult.extensions?.ftv1;
        },
      };
    },
  };
}

export interface StudioSetup {
  readonly apollo?: ApolloConfigInput;
  readonly plugins: ApolloServerPlugin<RequestContext>[];
}

export async function apolloStudio(config: Config, schemas: SchemaService, log: Logger): Promise<StudioSetup> {
  const plugins: ApolloServerPlugin<RequestContext>[] = [];
  // A subgraph's traces go to the gateway inline; the gateway reports them (FEDERATION=true). The
  // disabled marker keeps Apollo from installing its own inline trace plugin beside this one.
  plugins.push(ApolloServerPluginInlineTraceDisabled(), ...(config.FEDERATION ? [await roleAwareInlineTrace(schemas)] : []));
  if (!config.APOLLO_KEY || !config.APOLLO_GRAPH_REF) {
    if (config.APOLLO_KEY || config.APOLLO_GRAPH_REF) log.warn('Apollo Studio reporting is off: it needs both APOLLO_KEY and APOLLO_GRAPH_REF');
    plugins.push(ApolloServerPluginUsageReportingDisabled(), ApolloServerPluginSchemaReportingDisabled());
    // With these disabled, Apollo Server cannot turn reporting on by itself from the environment.
    return { plugins };
  }
  const endpoint = (url: string) => (url ? { endpointUrl: url } : {});
  const { ApolloServerPluginUsageReporting } = await import('@apollo/server/plugin/usageReporting');
  plugins.push(ApolloServerPluginUsageReporting<RequestContext>({
    ...endpoint(config.APOLLO_USAGE_REPORTING_URL),
    // Field-level detail for a sample of the operations (Apollo's default share is 1%), and only for
    // those whose every field the role may see.
    fieldLevelInstrumentation: async (rc) => (visibleToRole(rc, schemas) ? config.APOLLO_FIELD_LEVEL_SAMPLING : 0),
    // Variables and headers can hold personal data and credentials: never sent.
    sendVariableValues: { none: true },
    sendHeaders: { none: true },
  }));
  // A subgraph's schema is published to the supergraph by `rover subgraph publish` (schema.subgraph.graphql);
  // Apollo's schema reporting refuses subgraphs.
  if (config.FEDERATION) plugins.push(ApolloServerPluginSchemaReportingDisabled());
  else plugins.push((await import('@apollo/server/plugin/schemaReporting')).ApolloServerPluginSchemaReporting({ ...endpoint(config.APOLLO_SCHEMA_REPORTING_URL) }));
  log.info({ graph_ref: config.APOLLO_GRAPH_REF }, 'Apollo Studio reporting on');
  return { apollo: { key: config.APOLLO_KEY, graphRef: config.APOLLO_GRAPH_REF }, plugins };
}
