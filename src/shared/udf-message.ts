// Messages svc's own DuckDB functions (the geometry UDFs) give a statement's error: written for the
// client, they come back inside DuckDB's error text. The tag tells them apart from the database's own
// messages, which never reach a client (src/executor/db-errors.ts).
const TAG = '[svc] ';

/** The text a UDF hands DuckDB for a message of svc's own. */
export const ownUdfMessage = (message: string): string => `${TAG}${message}`;

/** svc's own message inside a database error's text, or undefined. */
export function udfMessageOf(dbMessage: string): string | undefined {
  const at = dbMessage.indexOf(TAG);
  return at < 0 ? undefined : dbMessage.slice(at + TAG.length).split('\n')[0];
}
