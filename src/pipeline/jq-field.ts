// Whether an operation may hold the built-in `jq` field (seed 000 "Built-in jq query"). The pipeline
// asks (the fast path leaves such operations to graphql-js, so the jq stage sees the whole result);
// jq itself (src/jq/fields.ts) evaluates the fields.

/** True when the document selects a `jq` field anywhere (a cheap test before the real pass). */
export function mentionsJq(document: { readonly loc?: { readonly source: { readonly body: string } } }): boolean {
  return document.loc ? /\bjq\b/.test(document.loc.source.body) : true;
}
