/**
 * The last `capacity` keys added, oldest forgotten first: what a worker
 * remembers of a burst (requests a page withdrew) without growing for ever.
 */
export class RecentKeys {
  private readonly keys = new Set<string>();

  constructor(private readonly capacity: number) {}

  add(key: string): void {
    this.keys.delete(key);
    this.keys.add(key);
    const [oldest] = this.keys;
    if (this.keys.size > this.capacity && oldest !== undefined) this.keys.delete(oldest);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** Whether `key` was there; it no longer is. */
  take(key: string): boolean {
    return this.keys.delete(key);
  }
}
