/**
 * Fixed windows aligned on multiples of their length, named by their index: every instance (and the
 * shared store) puts a request of the same moment in the same window, and moving the injected clock
 * past a window's end starts a fresh count with no timer. new-api's IP limits are fixed windows too.
 */
export interface WindowSlot {
  /** The counter's key: the limit's own key plus the window's index. */
  readonly key: string;
  /** Milliseconds until the window ends: the counter's lifetime, and the refused caller's wait. */
  readonly remainingMs: number;
}

export function windowSlot(key: string, windowMs: number, now: number): WindowSlot {
  const index = Math.floor(now / windowMs);
  return { key: `${key}:${index}`, remainingMs: (index + 1) * windowMs - now };
}

/** Whole seconds for a Retry-After header: never 0, which would invite an immediate retry. */
export function retryAfterSeconds(milliseconds: number): number {
  return Math.max(1, Math.ceil(milliseconds / 1000));
}
