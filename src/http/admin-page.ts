// The /admin page: GraphiQL with the explorer plugin (click to build a query), svc's own panel of
// header presets (secret key, API key, role), a welcome with three starter queries built from the
// objects the caller can see, and /subscribe as the subscription endpoint. Plain browser script
// (no build step): React, GraphiQL and the plugin are the installed packages' UMD files, served
// by AdminController, so the page works without internet access.

/** Runs in the browser. Kept as a function so TypeScript checks its syntax; sent as its source text. */
function explorerMain(): void {
  // Browser globals of the UMD files.
  const w = globalThis as unknown as Record<string, any>;
  const { React, ReactDOM, GraphiQL, GraphiQLPluginExplorer, location, document } = w;
  const h = React.createElement;
  const here = new URL(location.href);
  const url = new URL('/query', here).toString();
  const subscriptionUrl = new URL('/subscribe', here).toString().replace(/^http/, 'ws');
  const fetcher = GraphiQL.createFetcher({ url, subscriptionUrl });

  const post = async (query: string): Promise<any> => {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return r.json();
  };

  /** Three starter queries from the first data objects the anonymous caller sees (none: a generic one). */
  async function starterQueries(): Promise<string> {
    const head = [
      '# Welcome to svc, a GraphQL API over your data sources.',
      '#',
      '# Build a query by clicking fields in the Explorer (left), or type here: Ctrl-Space completes,',
      '# Ctrl-Enter runs. The "svc" panel (left) sets the headers: the secret key, an API key, or a',
      '# role to try (secret key + x-svc-role). Subscriptions re-run a query on an interval:',
      '#   subscription { query(interval: "10s") { ... } }',
      '#',
    ];
    const me = 'me: function { core { auth { me { role auth_type } } } }';
    try {
      const root = await post('{ _module(name: "") { dataObjects { name dataSourceName } } }');
      const objects = (root?.data?._module?.dataObjects ?? []).filter((o: any) => o.dataSourceName !== 'core');
      if (!objects.length) throw new Error('no data objects');
      const described = await post(`{ ${objects.slice(0, 20).map((o: any, i: number) => `o${i}: _dataObject(name: ${JSON.stringify(o.name)}) { name properties { isParameterized } fields { name kind type { kind name ofType { kind name } } } relations { fieldName kind dataObject { name } } }`).join(' ')} }`);
      const infos = (Object.values(described?.data ?? {}).filter(Boolean) as any[]).filter((o) => !o.properties?.isParameterized);
      const leafKinds = new Set(['SCALAR', 'ENUM']);
      const leaf = (t: any) => leafKinds.has(t.kind) || (t.kind === 'NON_NULL' && leafKinds.has(t.ofType?.kind));
      const columns = (o: any) => o.fields.filter((f: any) => f.kind === 'column' && leaf(f.type)).map((f: any) => f.name as string);
      const first = infos.find((o) => columns(o).length) ?? infos[0];
      const usable = (r: any) => infos.some((t) => t.name === r.dataObject?.name && columns(t).length);
      // A list relation shows the most (customers and their orders); an N:1 one will do.
      const many = (r: any) => r.kind === 'many' && usable(r);
      const withRel = infos.find((o) => o.relations.some((r: any) => many(r) && r.dataObject.name !== o.name)) ?? infos.find((o) => o.relations.some(usable)) ?? first;
      const rel = withRel.relations.find((r: any) => many(r) && r.dataObject.name !== withRel.name) ?? withRel.relations.find(usable);
      const target = rel && infos.find((t) => t.name === rel.dataObject.name);
      const cols = (o: any, n: number) => columns(o).slice(0, n).join(' ');
      const queries = [
        `# ${objects.length} data objects are served to you; three to start with:\n\nquery FirstRows {\n  ${first.name}(limit: 5) { ${cols(first, 6)} }\n}`,
        rel
          ? `query WithRelation {\n  ${withRel.name}(limit: 3) {\n    ${cols(withRel, 2)}\n    ${rel.fieldName}${rel.kind === 'many' ? '(limit: 3)' : ''} { ${cols(target, 3)} }\n  }\n}`
          : `query Ordered {\n  ${first.name}(limit: 5, order_by: [{field: ${JSON.stringify(columns(first)[0])}, direction: DESC}]) { ${cols(first, 3)} }\n}`,
        `query CountAndWhoAmI {\n  ${first.name}_aggregation { _rows_count }\n  ${me}\n}`,
      ];
      return `${head.join('\n')}\n${queries.join('\n\n')}\n`;
    } catch {
      return `${head.join('\n')}\n# No data object is served to an anonymous caller: set the headers in the svc panel first.\n\nquery WhoAmI {\n  ${me}\n}\n`;
    }
  }

  /** svc's panel: header presets for the secret key, an API key and a role. */
  function SvcPanel() {
    const { headerEditor } = GraphiQL.React.useEditorContext({ nonNull: true });
    const [secret, setSecret] = React.useState('');
    const [apiKey, setApiKey] = React.useState('');
    const [role, setRole] = React.useState('public');
    const [shown, setShown] = React.useState('');
    const apply = (name: string, headers: Record<string, string>) => {
      headerEditor?.setValue(JSON.stringify(headers, null, 2));
      setShown(name);
    };
    const field = (label: string, value: string, set: (v: string) => void, id: string, type = 'text') =>
      h('label', { style: { display: 'block', margin: '8px 0' } }, label,
        h('input', { id, type, value, onChange: (e: any) => set(e.target.value), style: { display: 'block', width: '100%', boxSizing: 'border-box', padding: '4px' } }));
    const button = (label: string, id: string, onClick: () => void) => h('button', { id, type: 'button', className: 'graphiql-button', onClick, style: { margin: '4px 4px 4px 0' } }, label);
    return h('div', { className: 'svc-panel', style: { padding: '0 8px' } },
      h('div', { className: 'graphiql-doc-explorer-title' }, 'svc'),
      h('p', null, 'Who the requests run as: each preset writes the Headers tab (below the query); run the query again to see that caller\'s answer.'),
      button('Anonymous', 'svc-preset-anonymous', () => apply('anonymous', {})),
      field('Secret key (SECRET_KEY)', secret, setSecret, 'svc-secret', 'password'),
      button('Use the secret key', 'svc-preset-secret', () => apply('secret key', { 'x-svc-secret-key': secret })),
      field('API key', apiKey, setApiKey, 'svc-api-key', 'password'),
      button('Use the API key', 'svc-preset-api-key', () => apply('API key', { 'x-svc-api-key': apiKey })),
      field('Role (with the secret key)', role, setRole, 'svc-role'),
      button('Act as this role', 'svc-preset-role', () => apply(`role ${role}`, { 'x-svc-secret-key': secret, 'x-svc-role': role })),
      shown ? h('p', { id: 'svc-preset-shown' }, `Headers set: ${shown}.`) : null,
      h('p', null, 'Subscriptions go to ', h('code', null, '/subscribe'), ' with the same headers.'));
  }

  const svcPlugin = {
    title: 'svc',
    icon: () => h('span', { style: { fontWeight: 700, fontSize: '12px' } }, 'svc'),
    content: () => h(SvcPanel),
  };
  const explorer = GraphiQLPluginExplorer.explorerPlugin({ showAttribution: false });

  void starterQueries().then((defaultQuery) => {
    ReactDOM.createRoot(document.getElementById('app')).render(
      h(GraphiQL, { fetcher, defaultQuery, plugins: [explorer, svcPlugin], visiblePlugin: explorer, defaultEditorToolbarOpen: true, shouldPersistHeaders: false }),
    );
  });
}

export const ADMIN_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>svc explorer</title>
<link rel="stylesheet" href="/admin/assets/graphiql.css">
<link rel="stylesheet" href="/admin/assets/explorer.css">
<style>html,body,#app{height:100%;margin:0}</style></head>
<body><div id="app"></div>
<script src="/admin/assets/react.js"></script>
<script src="/admin/assets/react-dom.js"></script>
<script src="/admin/assets/graphiql.js"></script>
<script src="/admin/assets/explorer.js"></script>
<script>(${explorerMain.toString()})();</script>
</body></html>`;
