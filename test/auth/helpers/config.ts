// Writes a YAML configuration file for one test app (SPEC §2 `CONFIG_FILE`).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

export function writeConfig(config: Record<string, unknown>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'svc-auth-')), 'config.yaml');
  writeFileSync(path, stringify(config));
  return path;
}

export const ME = '{ function { core { auth { me { user_id user_name role auth_type auth_provider impersonated_by_user_id impersonated_by_user_name impersonated_by_user_role } } } } }';

/** The `me` object out of a reply, or the reply itself when it has none (so failures show why). */
export const meOf = (r: { body: any }) => r.body?.data?.function?.core?.auth?.me ?? r.body;
