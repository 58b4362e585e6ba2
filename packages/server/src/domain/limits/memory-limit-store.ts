import { type Admission, concurrencyRetryMs, type LimitChange, type LimitRule, type LimitStore } from './limit-store.ts';

interface WindowCount {
  count: number;
  expiresAt: number;
}

/** Expired entries are dropped at most this often (of the injected clock), in one pass. */
const sweepEveryMs = 30_000;

/**
 * The limits of one process: a single instance, or the local fallback while Redis is away. JavaScript
 * runs one callback at a time, so checking and counting in one synchronous pass is atomic.
 */
export class MemoryLimitStore implements LimitStore {
  private readonly windows = new Map<string, WindowCount>();
  private readonly leases = new Map<string, Map<string, number>>();
  private lastSweep = 0;
  /** Every admission is the same answer: one object, not one per request. */
  private readonly admitted: Admission = { admitted: true, store: this };

  admit(rules: readonly LimitRule[], now: number): Admission {
    this.sweep(now);
    // Indexed loops: this runs on every limited request, and iterators and entry pairs are garbage.
    for (let index = 0; index < rules.length; index += 1) {
      const rule = rules[index] as LimitRule;
      if (rule.kind === 'window') {
        const current = this.liveWindow(rule.key, now)?.count ?? 0;
        if (current > 0 && current + rule.cost > rule.limit) return { admitted: false, refused: index, retryAfterMs: rule.ttlMs };
      } else if (this.leasesHeld(rule.key, rule.limit, now) >= rule.limit) {
        return { admitted: false, refused: index, retryAfterMs: concurrencyRetryMs };
      }
    }
    for (let index = 0; index < rules.length; index += 1) {
      const rule = rules[index] as LimitRule;
      if (rule.kind === 'window') {
        const window = this.liveWindow(rule.key, now);
        if (window) window.count += rule.cost;
        else this.windows.set(rule.key, { count: rule.cost, expiresAt: now + rule.ttlMs });
      } else {
        let leases = this.leases.get(rule.key);
        if (!leases) {
          leases = new Map<string, number>();
          this.leases.set(rule.key, leases);
        }
        leases.set(rule.leaseId, now + rule.ttlMs);
      }
    }
    return this.admitted;
  }

  settle(changes: readonly LimitChange[], now: number): void {
    for (const change of changes) {
      if (change.kind === 'window') {
        const window = this.liveWindow(change.key, now);
        if (window) window.count = Math.max(0, window.count + change.delta);
      } else {
        const leases = this.leases.get(change.key);
        leases?.delete(change.leaseId);
        if (leases?.size === 0) this.leases.delete(change.key);
      }
    }
  }

  /** Takes the counts of the windows still open (what was counted here while Redis was away), leaving none. */
  takeWindows(now: number): Array<{ key: string; count: number; ttlMs: number }> {
    const open: Array<{ key: string; count: number; ttlMs: number }> = [];
    for (const [key, window] of this.windows)
      if (window.expiresAt > now && window.count > 0) open.push({ key, count: window.count, ttlMs: window.expiresAt - now });
    this.windows.clear();
    return open;
  }

  private liveWindow(key: string, now: number): WindowCount | undefined {
    const window = this.windows.get(key);
    if (window && window.expiresAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  /**
   * How many leases under `key` are live, as far as `limit` needs to know: below it, expired leases
   * (a dead instance's) cannot change the answer and are left to the sweep; at it, they are dropped
   * and the live ones counted. A request at a limit of 32 then walks no leases, not 32 twice.
   */
  private leasesHeld(key: string, limit: number, now: number): number {
    const leases = this.leases.get(key);
    if (!leases) return 0;
    if (leases.size < limit) return leases.size;
    leases.forEach((expiresAt, leaseId) => {
      if (expiresAt <= now) leases.delete(leaseId);
    });
    return leases.size;
  }

  /** Windows of keys never seen again (a client address that left) would otherwise stay for ever. */
  private sweep(now: number): void {
    if (now - this.lastSweep < sweepEveryMs) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.expiresAt <= now) this.windows.delete(key);
    for (const [key, leases] of this.leases) {
      for (const [leaseId, expiresAt] of leases) if (expiresAt <= now) leases.delete(leaseId);
      if (leases.size === 0) this.leases.delete(key);
    }
  }
}
