// OpenLineage RunEvents (spec 2-0-2) for executed statements (SPEC §14, seed 000 "ACL run facet").
// Pure functions: what an event says, from the statement and the request that ran it.
import { randomBytes } from 'node:crypto';
import type { FinishedStatement } from '../executor/executor.js';
import type { RequestScope } from '../shared/request-scope.js';

export const PRODUCER = 'urn:svc:query-service';
const RUN_EVENT_SCHEMA = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';
const SQL_FACET_SCHEMA = 'https://openlineage.io/spec/facets/1-1-0/SQLJobFacet.json#/$defs/SQLJobFacet';
const JOB_TYPE_SCHEMA = 'https://openlineage.io/spec/facets/2-0-3/JobTypeJobFacet.json#/$defs/JobTypeJobFacet';
const ERROR_FACET_SCHEMA = 'https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet';
/** svc's own facets; their JSON schemas are in docs/lineage/. */
export const ACL_FACET_SCHEMA = 'urn:svc:facets:svc_acl:1-0-0';
export const REQUEST_FACET_SCHEMA = 'urn:svc:facets:svc_request:1-0-0';

export interface LineageOptions {
  readonly namespace: string;
  readonly identity: 'roles' | 'subject';
  readonly maxEdges: number;
  readonly nodeGroup: string;
}

export interface Dataset {
  readonly namespace: string;
  readonly name: string;
}

/** The svc_acl run facet of seed 000: who ran the statement, and how exact the lineage is. */
export interface AclFacet {
  readonly _producer: string;
  readonly _schemaURL: string;
  readonly client: string;
  readonly issuer?: string;
  readonly roles?: readonly string[];
  readonly subject?: string;
  readonly node_group?: string;
  readonly approximate: boolean;
  readonly truncated: boolean;
}

/** A UUIDv7 (time-ordered), as the OpenLineage spec recommends for run ids. */
export function uuidv7(now = Date.now()): string {
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function dataset(s: FinishedStatement, table: readonly string[]): Dataset {
  return s.runtime.lineageDataset?.(table) ?? { namespace: `svc://${s.runtime.name}`, name: table.join('.') };
}

/** Inputs and outputs, cut to `maxEdges` datasets in all (outputs kept first: they are what changed). */
function datasets(s: FinishedStatement, maxEdges: number): { inputs: Dataset[]; outputs: Dataset[]; truncated: boolean } {
  const writes = s.stmt.lineage?.writes ?? [];
  const reads = s.stmt.lineage?.reads ?? [];
  const outputs = writes.slice(0, maxEdges).map((t) => dataset(s, t));
  const inputs = reads.slice(0, Math.max(0, maxEdges - outputs.length)).map((t) => dataset(s, t));
  return { inputs, outputs, truncated: writes.length + reads.length > maxEdges };
}

export function runEvent(s: FinishedStatement, scope: RequestScope | undefined, o: LineageOptions): Record<string, unknown> {
  const { inputs, outputs, truncated } = datasets(s, o.maxEdges);
  const identity = scope?.identity;
  const token = identity && (identity.authType === 'jwt' || identity.authType === 'oidc');
  const acl: AclFacet = {
    _producer: PRODUCER,
    _schemaURL: ACL_FACET_SCHEMA,
    // Statements outside any request are the node's own (startup, in-process clients).
    client: scope ? scope.client : 'operator',
    ...(identity?.provider ? { issuer: identity.provider } : {}),
    ...(identity ? { roles: [identity.role] } : {}),
    ...(o.identity === 'subject' && token && identity.userId ? { subject: identity.userId } : {}),
    ...(o.nodeGroup ? { node_group: o.nodeGroup } : {}),
    approximate: !s.stmt.lineage || s.stmt.lineage.approximate,
    truncated,
  };
  const facets: Record<string, unknown> = { svc_acl: acl };
  if (scope) {
    facets.svc_request = {
      _producer: PRODUCER,
      _schemaURL: REQUEST_FACET_SCHEMA,
      request_id: scope.id,
      ...(scope.traceId ? { trace_id: scope.traceId } : {}),
      ...(scope.operation ? { operation: scope.operation } : {}),
    };
  }
  if (s.error) facets.errorMessage = { _producer: PRODUCER, _schemaURL: ERROR_FACET_SCHEMA, message: s.error.message, programmingLanguage: 'SQL' };
  return {
    eventType: s.error ? 'FAIL' : 'COMPLETE',
    eventTime: new Date(s.startedAt + s.ms).toISOString(),
    producer: PRODUCER,
    schemaURL: RUN_EVENT_SCHEMA,
    run: { runId: uuidv7(s.startedAt), facets },
    job: {
      namespace: o.namespace,
      name: `${s.runtime.name}.${scope?.operation ?? 'statement'}`,
      facets: {
        // The statement's text only: values are parameters and never appear in it.
        sql: { _producer: PRODUCER, _schemaURL: SQL_FACET_SCHEMA, query: s.stmt.sql },
        jobType: { _producer: PRODUCER, _schemaURL: JOB_TYPE_SCHEMA, processingType: 'BATCH', integration: 'SVC', jobType: 'QUERY' },
      },
    },
    inputs,
    outputs,
  };
}
