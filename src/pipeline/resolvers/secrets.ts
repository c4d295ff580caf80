// A managed API key is shown once, in the answer of the insert that creates it (issue 14 item 2):
// the stored hash is replaced by the key the client sent, at every response key selecting it.
import type { GraphQLResolveInfo } from 'graphql';
import type { DataObject } from '../../catalog/model.js';
import type { Access } from '../../permissions/access.js';
import type { Args } from '../../planner/select.js';

export function showSecretsOnce(access: Access, obj: DataObject, info: GraphQLResolveInfo, data: Args, row: unknown): unknown {
  const hashed = [...(access.scope.secrets.get(obj.name) ?? [])].filter(([name, kind]) => kind === 'hash' && typeof data[name] === 'string');
  if (!hashed.length || !row || typeof row !== 'object') return row;
  const out = { ...(row as Record<string, unknown>) };
  for (const node of info.fieldNodes) {
    for (const sel of node.selectionSet?.selections ?? []) {
      if (sel.kind !== 'Field') continue;
      const hit = hashed.find(([name]) => name === sel.name.value);
      if (hit) out[sel.alias?.value ?? sel.name.value] = data[hit[0]];
    }
  }
  return out;
}
