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

  async admit(rules: readonly LimitRule[], now: number): Promise<Admission> {
    return this.admitNow(rules, now);
  }

  admitNow(rules: readonly LimitRule[], now: number): Admission {
    this.sweep(now);
    for (const [index, rule] of rules.entries()) {
      if (rule.kind === 'window') {
        const current = this.liveWindow(rule.key, now)?.count ?? 0;
        if (current > 0 && current + rule.cost > rule.limit) return { admitted: false, refused: index, retryAfterMs: rule.ttlMs };
      } else if (this.liveLeases(rule.key, now).size >= rule.limit) {
        return { admitted: false, refused: index, retryAfterMs: concurrencyRetryMs };
      }
    }
    for (const rule of rules) {
      if (rule.kind === 'window') {
        const window = this.liveWindow(rule.key, now);
        if (window) window.count += rule.cost;
        else this.windows.set(rule.key, { count: rule.cost, expiresAt: now + rule.ttlMs });
      } else {
        const leases = this.liveLeases(rule.key, now);
        leases.set(rule.leaseId, now + rule.ttlMs);
        this.leases.set(rule.key, leases);
      }
    }
    return { admitted: true, store: this };
  }

  async settle(changes: readonly LimitChange[], now: number): Promise<void> {
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

  private liveLeases(key: string, now: number): Map<string, number> {
    const leases = this.leases.get(key) ?? new Map<string, number>();
    for (const [leaseId, expiresAt] of leases) if (expiresAt <= now) leases.delete(leaseId);
    return leases;
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
