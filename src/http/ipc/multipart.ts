// `multipart/mixed; boundary=SVC` written part by part (SPEC §13), waiting for the client to take
// each chunk before the next is produced, so a slow reader holds back the database, not memory.
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';

export const BOUNDARY = 'SVC';
export const ARROW_STREAM = 'application/vnd.apache.arrow.stream';

export interface PartHeaders {
  readonly 'Content-Type': string;
  readonly 'X-Svc-Part-Type': 'data' | 'extensions' | 'errors';
  readonly 'X-Svc-Path': string;
  readonly 'X-Svc-Format'?: 'table' | 'object';
}

/** Where an /ipc answer goes: multipart over HTTP, or messages on the /ipc WebSocket. */
export interface PartSink {
  readonly closed: boolean;
  /** A JSON part (`X-Svc-Format: object`). */
  object(path: string, json: string): Promise<void>;
  /** A table part begins; its Arrow stream bytes follow through `write`. */
  table(path: string): Promise<void>;
  write(chunk: Uint8Array): Promise<void>;
  endTable(path: string): Promise<void>;
  extensions(json: string): Promise<void>;
  errors(json: string): Promise<void>;
  close(): void;
}

export class MultipartWriter implements PartSink {
  private gone = false;

  constructor(private readonly out: ServerResponse) {
    out.on('close', () => (this.gone = true));
  }

  /** The client went away: stop producing (a running statement is interrupted by its stream's end). */
  get closed(): boolean {
    return this.gone || this.out.destroyed;
  }

  async write(chunk: Uint8Array | string): Promise<void> {
    if (this.closed) return;
    if (!this.out.write(chunk)) await Promise.race([once(this.out, 'drain'), once(this.out, 'close')]);
  }

  private async begin(headers: PartHeaders): Promise<void> {
    const lines = Object.entries(headers).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${v}\r\n`);
    await this.write(`--${BOUNDARY}\r\n${lines.join('')}\r\n`);
  }

  private async end(): Promise<void> {
    await this.write('\r\n');
  }

  private async json(headers: PartHeaders, text: string): Promise<void> {
    await this.begin(headers);
    await this.write(text);
    await this.end();
  }

  object(path: string, json: string): Promise<void> {
    return this.json({ 'Content-Type': 'application/json', 'X-Svc-Part-Type': 'data', 'X-Svc-Path': path, 'X-Svc-Format': 'object' }, json);
  }

  table(path: string): Promise<void> {
    return this.begin({ 'Content-Type': ARROW_STREAM, 'X-Svc-Part-Type': 'data', 'X-Svc-Path': path, 'X-Svc-Format': 'table' });
  }

  endTable(): Promise<void> {
    return this.end();
  }

  extensions(json: string): Promise<void> {
    return this.json({ 'Content-Type': 'application/json', 'X-Svc-Part-Type': 'extensions', 'X-Svc-Path': 'extensions' }, json);
  }

  errors(json: string): Promise<void> {
    return this.json({ 'Content-Type': 'application/json', 'X-Svc-Part-Type': 'errors', 'X-Svc-Path': 'errors' }, json);
  }

  close(): void {
    if (!this.closed) this.out.end(`--${BOUNDARY}--\r\n`);
  }
}
