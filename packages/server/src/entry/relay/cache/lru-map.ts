/**
 * A map that holds at most `capacity` entries and drops those not used for a while to make room.
 *
 * Entries live in two generations of half the capacity each: the recent one (used since it began)
 * and the older one. A hit in the recent generation is one Map lookup, nothing moves: the relay's hot
 * path pays no more than it would for a plain Map (an exact LRU reorders its Map on every use, which
 * costs several times a lookup). A hit in the older generation moves the entry to the recent one.
 * When the recent generation is full it becomes the older one, and what the older one still held
 * (entries unused for a whole generation) starts leaving: one of them is dropped per new entry, so
 * that no call pays for dropping a whole generation at once, and one used meanwhile comes back. Every
 * entry used at least once per half a capacity's worth of new entries therefore stays.
 */
export class LruMap<K, V> {
  readonly capacity: number;
  private readonly generationSize: number;
  private recent = new Map<K, V>();
  private older = new Map<K, V>();
  /** The generation being dropped, one entry per new entry. */
  private leaving = new Map<K, V>();
  private readonly onEvict: (key: K, value: V) => void;

  constructor(capacity: number, onEvict: (key: K, value: V) => void = () => undefined) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
    // The three maps never hold more than `2 × generationSize - 1` entries together (see `admit`).
    this.generationSize = Math.ceil(capacity / 2);
    this.onEvict = onEvict;
  }

  get size(): number {
    return this.recent.size + this.older.size + this.leaving.size;
  }

  /** The value, marked as used now. */
  get(key: K): V | undefined {
    const value = this.recent.get(key);
    if (value !== undefined) return value;
    return this.promote(key, this.older) ?? this.promote(key, this.leaving);
  }

  /** The value, without marking it as used (background reloads must not keep idle entries alive). */
  peek(key: K): V | undefined {
    return this.recent.get(key) ?? this.older.get(key) ?? this.leaving.get(key);
  }

  has(key: K): boolean {
    return this.recent.has(key) || this.older.has(key) || this.leaving.has(key);
  }

  /** Stores the value as used now. */
  set(key: K, value: V): void {
    if (this.recent.has(key)) {
      this.recent.set(key, value);
      return;
    }
    if (!this.older.delete(key)) this.leaving.delete(key);
    this.admit(key, value);
  }

  delete(key: K): boolean {
    return this.recent.delete(key) || this.older.delete(key) || this.leaving.delete(key);
  }

  keys(): IterableIterator<K> {
    return [...this.leaving.keys(), ...this.older.keys(), ...this.recent.keys()].values();
  }

  private promote(key: K, from: Map<K, V>): V | undefined {
    const value = from.get(key);
    if (value === undefined) return undefined;
    from.delete(key);
    this.admit(key, value);
    return value;
  }

  /**
   * Adds to the recent generation and drops one leaving entry. Right after the recent generation fills
   * and becomes the older one, the maps hold at most `g` (older) + `g - 1` (leaving, once one is
   * dropped); each later entry adds one to recent and drops one from leaving, which is empty before
   * recent fills again. So the total never exceeds `2g - 1`, at most the capacity.
   */
  private admit(key: K, value: V): void {
    this.recent.set(key, value);
    this.dropOneLeaving();
    if (this.recent.size < this.generationSize) return;
    // `leaving` is empty by now: it held at most g - 1 after the last turn, and every one of the g entries since dropped one.
    this.leaving = this.older;
    this.older = this.recent;
    this.recent = new Map();
    this.dropOneLeaving();
  }

  private dropOneLeaving(): void {
    const first = this.leaving.entries().next();
    if (first.done) return;
    const [key, value] = first.value;
    this.leaving.delete(key);
    this.onEvict(key, value);
  }
}
