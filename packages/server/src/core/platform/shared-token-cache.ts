/** A fetched credential and when to fetch a new one (Unix seconds). */
export interface FetchedToken {
  readonly token: string;
  readonly refreshAt: number;
}

/** Waits for `shared` until `signal` aborts; the abort rejects this wait only, never `shared`. */
function untilAborted<T>(shared: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return shared;
  if (signal.aborted) return Promise.reject(signal.reason);
  const left = Promise.withResolvers<never>();
  const leave = () => left.reject(signal.reason);
  signal.addEventListener('abort', leave, { once: true });
  return Promise.race([shared, left.promise]).finally(() => signal.removeEventListener('abort', leave));
}

/**
 * Access tokens that a vendor hands out for a while (Baidu's OAuth token, Google's service-account
 * token): kept per credential until their refresh time, and fetched once however many requests ask
 * at the same moment. A caller who gives up (its signal aborts) stops waiting; the fetch goes on for
 * the others.
 */
export class SharedTokenCache {
  readonly #cache = new Map<string, FetchedToken>();
  readonly #pending = new Map<string, Promise<FetchedToken>>();
  readonly #now: () => number;

  /** `now` gives Unix seconds; tests pass their own clock. */
  constructor(now: () => number = () => Math.floor(Date.now() / 1000)) {
    this.#now = now;
  }

  /** The token cached under `cacheKey` while it is fresh, else the one `fetch` gets (shared by concurrent callers). */
  async get(cacheKey: string, fetch: () => Promise<FetchedToken>, signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    const cached = this.#cache.get(cacheKey);
    if (cached && cached.refreshAt > this.#now()) return cached.token;
    let pending = this.#pending.get(cacheKey);
    if (!pending) {
      pending = fetch()
        .then((fresh) => {
          this.#cache.set(cacheKey, fresh);
          return fresh;
        })
        .finally(() => this.#pending.delete(cacheKey));
      // Every caller may have left before a failure: it is theirs to see, not an unhandled rejection.
      pending.catch(() => undefined);
      this.#pending.set(cacheKey, pending);
    }
    return (await untilAborted(pending, signal)).token;
  }

  /** Drops `token` (the vendor called it invalid), unless a newer one replaced it already. */
  forget(cacheKey: string, token: string): void {
    if (this.#cache.get(cacheKey)?.token === token) this.#cache.delete(cacheKey);
  }

  /** Unix seconds now, by the cache's clock (for computing a fetched token's refresh time). */
  now(): number {
    return this.#now();
  }
}
