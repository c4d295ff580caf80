// Prepared statements per connection, least recently used first out. Read statements repeat (the
// plan cache keeps their text stable), so parsing and planning them once per connection pays off.
export class StatementCache<T> {
  private readonly entries = new Map<string, T>();

  constructor(
    private readonly capacity: number,
    private readonly dispose: (value: T) => void = () => undefined,
  ) {}

  get(key: string): T | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  set(key: string, value: T): void {
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const [oldest, v] = this.entries.entries().next().value as [string, T];
      this.entries.delete(oldest);
      this.dispose(v);
    }
  }

  clear(): void {
    for (const v of this.entries.values()) this.dispose(v);
    this.entries.clear();
  }
}
