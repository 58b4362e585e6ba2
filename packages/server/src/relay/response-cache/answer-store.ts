/**
 * Where cached answers live: in this process (bounded by bytes) or in Redis (shared by instances).
 * Values are opaque buffers (cached-answer.ts); `ttlSeconds` comes from the rule that stored them.
 */
export interface AnswerStore {
  get(key: string): Promise<Buffer | undefined> | Buffer | undefined;
  set(key: string, value: Buffer, ttlSeconds: number): Promise<void> | void;
  /** Drops every stored answer; answers how many were dropped. */
  purge(): Promise<number>;
}

interface MemoryEntry {
  readonly value: Buffer;
  readonly expiresAt: number;
}

/**
 * Least recently used answers go first once the stored bytes pass `maxBytes`: a Map keeps insertion
 * order, and a read moves its entry to the end, so the first entry is always the coldest.
 */
export class MemoryAnswerStore implements AnswerStore {
  private readonly entries = new Map<string, MemoryEntry>();
  private storedBytes = 0;
  private readonly maxBytes: number;
  private readonly now: () => number;

  constructor(maxBytes: number, now: () => number = Date.now) {
    this.maxBytes = maxBytes;
    this.now = now;
  }

  get bytes(): number {
    return this.storedBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) {
      this.storedBytes -= entry.value.length;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: Buffer, ttlSeconds: number): void {
    if (value.length > this.maxBytes) return;
    this.remove(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlSeconds * 1000 });
    this.storedBytes += value.length;
    for (const [coldest] of this.entries) {
      if (this.storedBytes <= this.maxBytes) break;
      this.remove(coldest);
    }
  }

  purge(): Promise<number> {
    const count = this.entries.size;
    this.entries.clear();
    this.storedBytes = 0;
    return Promise.resolve(count);
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.storedBytes -= entry.value.length;
  }
}
