// `[$ENV_NAME]` in a data source path is replaced from the environment at load (SPEC §3.1).
import { ErrorCode, PublicError } from './errors.js';

export function substituteEnv(path: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.replace(/\[\$([A-Za-z_][A-Za-z0-9_]*)\]/g, (_m, name: string) => {
    const v = env[name];
    if (v === undefined) throw new PublicError(ErrorCode.BadUserInput, `environment variable "${name}" named in the data source path is not set`);
    return v;
  });
}
