/**
 * A map that holds at most `capacity` entries and drops those not used for a while to make room.
 *
 * Entries live in two generations of half the capacity each: the recent one (used since it began)
 * and the older one. A hit in the recent generation is one Map lookup, nothing moves: the relay's hot
 * path pays no more than it would for a plain Map (an exact LRU reorders its Map on every use, which
 * costs several times a lookup). A hit in the older generation moves the entry to the recent one.
 * When the recent generation is full it becomes the older one, and what the older one still held
 * (entries unused for a whole generation) is dropped. Every entry used at least once per half a
 * capacity's worth of new entries therefore stays; each operation is O(1), amortized over a generation.
 */
export class LruMap<K, V> {
  readonly capacity: number;
  private readonly generationSize: number;
  private recent = new Map<K, V>();
  private older = new Map<K, V>();
  private readonly onEvict: (key: K, value: V) => void;

  constructor(capacity: number, onEvict: (key: K, value: V) => void = () => undefined) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
    // Two generations of this size never hold more than `capacity` together (see `admit`).
    this.generationSize = Math.ceil(capacity / 2);
    this.onEvict = onEvict;
  }

  get size(): number {
    return this.recent.size + this.older.size;
  }

  /** The value, marked as used now. */
  get(key: K): V | undefined {
    const value = this.recent.get(key);
    if (value !== undefined) return value;
    const old = this.older.get(key);
    if (old === undefined) return undefined;
    this.older.delete(key);
    this.admit(key, old);
    return old;
  }

  /** The value, without marking it as used (background reloads must not keep idle entries alive). */
  peek(key: K): V | undefined {
    return this.recent.get(key) ?? this.older.get(key);
  }

  has(key: K): boolean {
    return this.recent.has(key) || this.older.has(key);
  }

  /** Stores the value as used now; the generation it fills may push out the entries unused since the one before. */
  set(key: K, value: V): void {
    if (this.recent.has(key)) {
      this.recent.set(key, value);
      return;
    }
    this.older.delete(key);
    this.admit(key, value);
  }

  delete(key: K): boolean {
    return this.recent.delete(key) || this.older.delete(key);
  }

  keys(): IterableIterator<K> {
    return [...this.older.keys(), ...this.recent.keys()].values();
  }

  /**
   * Adds to the recent generation. Just before it fills, the two hold at most `2 × generationSize - 1`
   * entries (at most the capacity); once full it becomes the older generation, and the previous older
   * one is dropped.
   */
  private admit(key: K, value: V): void {
    this.recent.set(key, value);
    if (this.recent.size < this.generationSize) return;
    const dropped = this.older;
    this.older = this.recent;
    this.recent = new Map();
    for (const [droppedKey, droppedValue] of dropped) this.onEvict(droppedKey, droppedValue);
  }
}
