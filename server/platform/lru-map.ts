/**
 * A Map bounded to `max` entries that drops the least recently used first (reads and writes count
 * as use; JavaScript Maps keep insertion order, so the first key is the oldest). Shared by the
 * server's small in-memory caches: prepared statements (server/db/connection.ts), compressed JSON
 * answers (./cached-json.ts) and the answers kept per revision (./revision-texts.ts).
 * `onDrop` is told of every entry that leaves (dropped, deleted or replaced), e.g. to keep a byte total.
 */
export class LruMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(
    private readonly max: number,
    private readonly onDrop: (key: K, value: V) => void = () => {},
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The value of `key`, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** Sets `key` as the most recently used, then drops the oldest entries beyond `max`. */
  set(key: K, value: V): void {
    this.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.max) this.dropOldest();
  }

  /** Removes `key` (telling `onDrop`); false when absent. */
  delete(key: K): boolean {
    if (!this.#entries.has(key)) return false;
    const value = this.#entries.get(key)!;
    this.#entries.delete(key);
    this.onDrop(key, value);
    return true;
  }

  /** Removes the least recently used entry, if any. */
  dropOldest(): void {
    const oldest = this.#entries.keys().next();
    if (!oldest.done) this.delete(oldest.value);
  }

  clear(): void {
    for (const key of [...this.#entries.keys()]) this.delete(key);
  }
}
