/** At most `limit` tasks at once (0 = unlimited); others wait their turn in order. */
export class Semaphore {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    // Unlimited: the task as it is, without a promise of its own per call (issue 30).
    return this.limit > 0 ? this.bounded(task) : task();
  }

  private async bounded<T>(task: () => Promise<T>): Promise<T> {
    if (this.limit > 0 && this.running >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.queue.shift()?.();
    }
  }
}
