/** How much a new first-byte time moves the average: about the last five answers count. */
const smoothing = 0.3;

interface LatencyEntry {
  averageMs: number;
  sampledAt: number;
}

/**
 * Time to first byte per channel and model, as an exponentially weighted moving average, for the
 * lowest-latency strategy. An average not refreshed for `staleAfterMs` no longer counts: the
 * channel is tried again (exploration), so a channel that was slow and has recovered is found
 * again, and one that slowed down is measured again rather than trusted on old numbers.
 */
export class LatencyBook {
  /** Channel id → model → average: no key text built per lookup. */
  private readonly entries = new Map<number, Map<string, LatencyEntry>>();
  private readonly now: () => number;
  readonly staleAfterMs: number;

  constructor(now: () => number, staleAfterMs = 30_000) {
    this.now = now;
    this.staleAfterMs = staleAfterMs;
  }

  observe(channelId: number, model: string, firstByteMs: number): void {
    if (!Number.isFinite(firstByteMs) || firstByteMs < 0) return;
    let models = this.entries.get(channelId);
    if (!models) {
      models = new Map();
      this.entries.set(channelId, models);
    }
    const entry = models.get(model);
    const now = this.now();
    if (!entry || now - entry.sampledAt > this.staleAfterMs) models.set(model, { averageMs: firstByteMs, sampledAt: now });
    else {
      entry.averageMs += smoothing * (firstByteMs - entry.averageMs);
      entry.sampledAt = now;
    }
  }

  /** The channel's recent average for the model; undefined when unmeasured or stale (worth exploring). */
  averageMs(channelId: number, model: string): number | undefined {
    const entry = this.entries.get(channelId)?.get(model);
    if (!entry || this.now() - entry.sampledAt > this.staleAfterMs) return undefined;
    return entry.averageMs;
  }
}
