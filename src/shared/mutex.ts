/** Runs tasks one after another, in the order they were queued. */
export class Serial {
  /** Made on first use: every request context has one, few ever queue on it. */
  private tail: Promise<unknown> | undefined;

  run<T>(task: () => Promise<T>): Promise<T> {
    const next = (this.tail ?? Promise.resolve()).then(task, task);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
