/**
 * One limit a request must fit in, checked and counted in one atomic step with the others of the
 * same request (all pass and all are counted, or none is).
 *
 * - `window`: at most `limit` units (requests, or tokens) counted under `key` until the window ends.
 *   The key already names its window (see window-slot.ts), so a store keeps no notion of time: a
 *   count lives `ttlMs`, the time left in its window, which is also when a refused caller may retry.
 *   A window still empty admits any cost, so one request larger than the limit is not refused for ever.
 * - `concurrency`: at most `limit` leases under `key`; each request holds one (named `leaseId`) until it
 *   finishes. A lease also expires after `ttlMs`, so an instance that dies mid-request gives its slots
 *   back without anyone releasing them.
 */
export type LimitRule =
  | { readonly kind: 'window'; readonly key: string; readonly limit: number; readonly cost: number; readonly ttlMs: number }
  | { readonly kind: 'concurrency'; readonly key: string; readonly limit: number; readonly leaseId: string; readonly ttlMs: number };

/** What a finished request gives back or adds: a window's count corrected, a lease released. */
export type LimitChange =
  { readonly kind: 'window'; readonly key: string; readonly delta: number } | { readonly kind: 'concurrency'; readonly key: string; readonly leaseId: string };

export type Admission =
  /** Counted in `store`: the request's changes must go back to that same store. */
  | { readonly admitted: true; readonly store: LimitStore }
  /** `refused` is the index of the first rule that did not fit; retry after `retryAfterMs`. */
  | { readonly admitted: false; readonly refused: number; readonly retryAfterMs: number };

/** A concurrency refusal cannot know when a slot frees; a client is told to try again in a second. */
export const concurrencyRetryMs = 1000;

/** Counters and leases of request limits: in this process, or in Redis shared by every instance. */
export interface LimitStore {
  /**
   * Checks every rule and, when all fit, counts them all; atomic against every other caller. A store
   * in this process answers at once (no promise): the relay then admits a request without waiting.
   */
  admit(rules: readonly LimitRule[], now: number): Admission | Promise<Admission>;
  /** Applies a finished request's changes (best effort: a failure is only a less exact count). */
  settle(changes: readonly LimitChange[], now: number): void | Promise<void>;
}
