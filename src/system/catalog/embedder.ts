// The embedding client of seed 001 (`EMBEDDER_URL`): an OpenAI-compatible endpoint. Request
// `POST EMBEDDER_URL` with `{"model": EMBEDDER_MODEL, "input": ["text", ...]}`; answer
// `{"data": [{"index": 0, "embedding": [0.1, ...]}, ...]}`. The key (EMBEDDER_API_KEY) is sent as a
// Bearer token and never appears in a message.
import { ErrorCode, PublicError } from '../../shared/errors.js';

export interface EmbedderOptions {
  readonly url: string;
  readonly model: string;
  readonly apiKey: string;
  readonly timeoutMs?: number;
}

export class Embedder {
  constructor(private readonly o: EmbedderOptions) {}

  async embed(texts: readonly string[]): Promise<number[][]> {
    if (!texts.length) return [];
    const fail = (why: string) => new PublicError(ErrorCode.SourceUnavailable, `the embedder at ${new URL(this.o.url).origin} ${why}`);
    let res: Response;
    try {
      res = await fetch(this.o.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {}) },
        body: JSON.stringify({ model: this.o.model, input: texts }),
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 30_000),
      });
    } catch (e) {
      throw fail(`did not answer: ${(e as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable'}`);
    }
    if (!res.ok) throw fail(`answered ${res.status}`);
    const body = (await res.json().catch(() => undefined)) as { data?: { index?: number; embedding?: unknown }[] } | undefined;
    const out: number[][] = new Array(texts.length);
    for (const [i, d] of (body?.data ?? []).entries()) {
      const v = d.embedding;
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) throw fail('answered an embedding that is not a list of numbers');
      out[d.index ?? i] = v as number[];
    }
    if (out.filter(Boolean).length !== texts.length) throw fail(`answered ${out.filter(Boolean).length} embeddings for ${texts.length} texts`);
    return out;
  }
}
