import { LRUCache } from 'lru-cache';
import { SlowDown } from '../../../core/http/slow-down.ts';
import type { Clock } from '../../../core/platform/clock.ts';

/** Unknown keys one address may try in the window before its further tries are slowed down. */
export const keyGuessLimits = { failures: 20, windowMs: 10 * 60_000 };

/**
 * Slows down guessing of relay keys: unknown keys are counted per client address, and once an address
 * is past the limit every key it tries that is not already in memory waits first (a growing delay; a
 * flood past the waiting room is refused with 429), so a guess costs time whether it is right or not.
 * Keys the token cache holds never reach this: the relay's hot path does no extra work. Counts are per
 * process, in memory, bounded to the most recent addresses.
 */
export class KeyGuessGuard {
  private readonly failures = new LRUCache<string, { count: number; since: number }>({ max: 50_000 });
  private readonly clock: Clock;
  private readonly slowDown: SlowDown;
  private readonly limits: typeof keyGuessLimits;

  constructor(clock: Clock, slowDown = new SlowDown(), limits = keyGuessLimits) {
    this.clock = clock;
    this.slowDown = slowDown;
    this.limits = limits;
  }

  private current(ip: string): { count: number; since: number } | undefined {
    const entry = this.failures.get(ip);
    if (entry && this.clock.now() - entry.since >= this.limits.windowMs) {
      this.failures.delete(ip);
      return undefined;
    }
    return entry;
  }

  /** Before a key that is not in memory is looked up: waits when the address is past its limit. */
  async beforeLookup(ip: string): Promise<void> {
    // The first try after `failures` unknown keys is the first to wait.
    const excess = (this.current(ip)?.count ?? 0) - this.limits.failures + 1;
    if (excess > 0) await this.slowDown.pause(excess);
  }

  /** The key was unknown. */
  failed(ip: string): void {
    const entry = this.current(ip);
    if (entry) entry.count += 1;
    else this.failures.set(ip, { count: 1, since: this.clock.now() });
  }
}
