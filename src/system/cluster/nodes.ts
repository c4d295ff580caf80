// `core.cluster.nodes` (seed 001): the nodes registered in `_cluster_nodes`, served read-only like
// the catalog views, on whichever database the core source uses.
import { compileCatalog } from '../../catalog/compile.js';
import type { ResolvedCatalog, SourceType } from '../../catalog/model.js';

export const CLUSTER_SOURCE = 'core.cluster';
export const CLUSTER_PREFIX = 'core_cluster';

export const CLUSTER_NODES_SDL = /* GraphQL */ `
"""Nodes of the cluster: each heartbeats; management removes the silent ones (SPEC §12)."""
type nodes @view(name: "_cluster_nodes", sql: "SELECT name, url, role, version, started_at, last_heartbeat, error FROM [$catalog]._cluster_nodes") {
  name: String! @pk
  "Base URL other nodes reach this one at (its /query and /ipc endpoints)"
  url: String!
  "management or worker"
  role: String!
  version: String
  started_at: Timestamp
  last_heartbeat: Timestamp
  "Null when healthy; else the last problem the node reported"
  error: String
}
`;

/** The compiled `core.cluster` views, at `{ core { cluster { nodes } } }`. */
export function compileClusterViews(type: SourceType): ResolvedCatalog {
  return compileCatalog(
    { name: CLUSTER_SOURCE, type, prefix: CLUSTER_PREFIX, asModule: true, readOnly: true, module: 'core.cluster' },
    [{ file: 'src/system/cluster/nodes.ts', text: CLUSTER_NODES_SDL }],
  );
}
