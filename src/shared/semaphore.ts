/** At most `limit` tasks at once (0 = unlimited); others wait their turn in order. */
export class Semaphore {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    // Unlimited: the task as it is, without a promise of its own per call (issue 30).
    if (this.limit <= 0) return task();
    // A free slot (the common case): taken at once, with one promise rather than an async
    // function's three (every statement passes here).
    if (this.running < this.limit) {
      this.running++;
      return this.held(task);
    }
    // A finished task hands its slot to the first waiter (done() below), so nobody arriving in
    // between takes it first.
    return new Promise<void>((resolve) => this.queue.push(resolve)).then(() => this.held(task));
  }

  /** Runs `task` in a slot already taken; the slot goes on when it settles. */
  private held<T>(task: () => Promise<T>): Promise<T> {
    let running: Promise<T>;
    try {
      running = task();
    } catch (e) {
      this.done();
      return Promise.reject(e);
    }
    return running.then(
      (v) => {
        this.done();
        return v;
      },
      (e: unknown) => {
        this.done();
        throw e;
      },
    );
  }

  private done(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.running--;
  }
}
