// Who wants to know that data objects changed: the API-key and role caches now, the result cache
// (SPEC §9) later. Fired once a request's writes are committed, never for rolled-back ones.
export type WriteListener = (objects: ReadonlySet<string>) => void;

export class WriteEvents {
  private readonly listeners = new Set<WriteListener>();

  on(listener: WriteListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  committed(objects: ReadonlySet<string>): void {
    if (!objects.size) return;
    for (const l of this.listeners) l(objects);
  }
}
