import { storedSize, type CachedAnswer } from './cached-answer.ts';

/**
 * Where cached answers live: in this process (bounded by bytes) or in Redis (shared by instances).
 * `ttlSeconds` comes from the rule that stored them. A synchronous store answers synchronously: a
 * hit from memory costs no promise.
 */
export interface AnswerStore {
  get(key: string): Promise<CachedAnswer | undefined> | CachedAnswer | undefined;
  set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void> | void;
  /** Drops every stored answer; answers how many were dropped. */
  purge(): Promise<number>;
}

interface MemoryEntry {
  readonly answer: CachedAnswer;
  /** What the answer counts against the bound: its size as Redis would hold it (cached-answer.ts). */
  readonly bytes: number;
  readonly expiresAt: number;
}

/**
 * Least recently used answers go first once the stored bytes pass `maxBytes`: a Map keeps insertion
 * order, and a read moves its entry to the end, so the first entry is always the coldest. Answers are
 * kept as objects, not encoded: a hit reads no head and copies no byte.
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

  get(key: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) {
      this.storedBytes -= entry.bytes;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.answer;
  }

  set(key: string, answer: CachedAnswer, ttlSeconds: number): void {
    const bytes = storedSize(answer);
    if (bytes > this.maxBytes) return;
    this.remove(key);
    this.entries.set(key, { answer, bytes, expiresAt: this.now() + ttlSeconds * 1000 });
    this.storedBytes += bytes;
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
    this.storedBytes -= entry.bytes;
  }
}
