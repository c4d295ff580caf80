import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

// The store file of SPEC §15: nonce(12) ‖ ciphertext ‖ tag(16), AES-256-GCM, associated data `svc-secrets/1`.

const AAD = Buffer.from('svc-secrets/1');
const NONCE = 12;
const TAG = 16;

export class StoreOpenError extends Error {}

/** Strict base64 of exactly 32 bytes; a lenient decoder would accept a mistyped key and fail later. */
export function decodeStoreKey(text: string | undefined, envName: string): Buffer {
  if (!text) throw new StoreOpenError(`store key: environment variable ${envName} is not set`);
  const t = text.trim();
  const key = Buffer.from(t, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(t) || key.toString('base64') !== t || key.length !== 32) {
    throw new StoreOpenError(`store key: ${envName} must hold 32 bytes in base64 (44 characters)`);
  }
  return key;
}

export function seal(key: Buffer, plain: Buffer): Buffer {
  // A fresh nonce per write: GCM must never reuse one under a key.
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(AAD);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]);
}

export function unseal(key: Buffer, file: Buffer, path: string): Buffer {
  if (file.length < NONCE + TAG) throw new StoreOpenError(`store ${path} is truncated (${file.length} bytes)`);
  const decipher = createDecipheriv('aes-256-gcm', key, file.subarray(0, NONCE));
  decipher.setAAD(AAD);
  decipher.setAuthTag(file.subarray(file.length - TAG));
  try {
    return Buffer.concat([decipher.update(file.subarray(NONCE, file.length - TAG)), decipher.final()]);
  } catch {
    // GCM cannot tell a wrong key from a damaged file; both stop the start.
    throw new StoreOpenError(`store ${path} does not open: wrong key, or the file is truncated or altered`);
  }
}

/** undefined when the file does not exist yet; any other read error stops the start. */
export function readStoreFile(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StoreOpenError(`store ${path} cannot be read: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

/** Atomic replace: a temporary file (mode 0600) in the same directory, flushed, then renamed over the store. */
export function writeStoreFile(path: string, data: Buffer): void {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', 0o600);
    writeSync(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // nothing was created
    }
    throw err;
  }
  syncDir(dirname(path));
}

// The rename is durable only once the directory entry is flushed; some platforms cannot open a directory.
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
