/**
 * A map that holds at most `capacity` entries and drops the least recently used one to make room.
 * A JavaScript Map iterates in insertion order, so moving an entry to the end on use keeps the
 * least recently used one first: every operation is O(1) and nothing beyond the Map is allocated.
 */
export class LruMap<K, V> {
  readonly capacity: number;
  private readonly entries = new Map<K, V>();
  private readonly onEvict: (key: K, value: V) => void;
  /** The key used last: the hot path's repeated use of one key skips the reordering. */
  private newest: K | undefined;

  constructor(capacity: number, onEvict: (key: K, value: V) => void = () => undefined) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
    this.onEvict = onEvict;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value, marked as used now. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined || key === this.newest) return value;
    this.entries.delete(key);
    this.entries.set(key, value);
    this.newest = key;
    return value;
  }

  /** The value, without marking it as used (background reloads must not keep idle entries alive). */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Stores the value as the most recently used; past the capacity the least recently used entry goes. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    this.newest = key;
    if (this.entries.size <= this.capacity) return;
    const oldest = this.entries.entries().next().value;
    if (!oldest) return;
    this.entries.delete(oldest[0]);
    this.onEvict(oldest[0], oldest[1]);
  }

  delete(key: K): boolean {
    if (key === this.newest) this.newest = undefined;
    return this.entries.delete(key);
  }

  keys(): IterableIterator<K> {
    return this.entries.keys();
  }

  values(): IterableIterator<V> {
    return this.entries.values();
  }
}
