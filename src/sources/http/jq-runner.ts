// How an http source runs jq (its catalog SQL's jq argument, OAuth2 token transforms): given by the
// application (src/system/http-jq.ts), since the jq engine sits above the sources.

/** Runs a jq program over a JSON text; its outputs, each a JSON text. */
export type JqRunner = (program: string, input: string, variables?: Readonly<Record<string, unknown>>) => Promise<readonly string[]>;
