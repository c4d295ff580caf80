// Fields a team's extension adds to a generated type (issue 20 item 2, src/extensions/). The
// planner does not read them from the database; it reads the object's key fields instead, under
// hidden names, so the extension's batched resolver knows which rows its parents are.
import type { GraphQLField } from 'graphql';

/** Response key prefix of the key fields read for an extension field (`svc_parent_id`). */
export const PARENT_KEY_PREFIX = 'svc_parent_';

const MARK = 'svcExtensionParentKeys';

/** Marks `field` as an extension field whose parents need `keys` (the object's primary key fields). */
export function markExtensionField(field: GraphQLField<unknown, unknown>, keys: readonly string[]): void {
  Object.assign(field, { extensions: { ...field.extensions, [MARK]: keys } });
}

export function extensionFieldKeys(field: { readonly extensions?: Readonly<Record<string, unknown>> | null }): readonly string[] | undefined {
  return field.extensions?.[MARK] as readonly string[] | undefined;
}
