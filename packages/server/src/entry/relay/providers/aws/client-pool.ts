/**
 * Clients kept per key, at most `maximum` of them idle: the least recently used idle client is
 * destroyed to make room, and a client with requests in flight is never destroyed. When every
 * client is busy the pool grows past `maximum` for a while and shrinks back as requests end.
 */
export interface Destroyable {
  destroy(): void;
}

/** One use of a pooled client; `release` once the request is over (its body read or dropped). */
export interface ClientLease<T> {
  readonly client: T;
  release(): void;
}

interface Entry<T> {
  readonly client: T;
  inFlight: number;
}

export class ClientPool<T extends Destroyable> {
  // Map order is use order: the first entry is the least recently used.
  readonly #entries = new Map<string, Entry<T>>();
  readonly #maximum: number;

  constructor(maximum: number) {
    this.#maximum = maximum;
  }

  get size(): number {
    return this.#entries.size;
  }

  acquire(key: string, create: () => T): ClientLease<T> {
    const entry = this.#entries.get(key) ?? { client: create(), inFlight: 0 };
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    entry.inFlight += 1;
    this.#evictIdle();
    let released = false;
    return {
      client: entry.client,
      release: () => {
        if (released) return;
        released = true;
        entry.inFlight -= 1;
        this.#evictIdle();
      },
    };
  }

  #evictIdle(): void {
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= this.#maximum) return;
      if (entry.inFlight > 0) continue;
      this.#entries.delete(key);
      entry.client.destroy();
    }
  }
}
