/**
 * Upper bounds (milliseconds) of the latency buckets the per-channel view counts: fine steps under a
 * second, widening after, so a channel-hour has at most this many rows per type however varied its
 * calls, and a percentile is within a step of the truth. Above the last bound a call counts in
 * `overflowLatency`. Every whole second up to 10 and the old seconds bounds (15, 20, … 600 s) are
 * bounds too, so logs without milliseconds (use_time × 1000) land where they did.
 */
export const latencyBounds = [
  0, 5, 10, 20, 30, 40, 50, 75, 100, 150, 200, 250, 300, 400, 500, 600, 700, 800, 900, 1_000, 1_250, 1_500, 1_750, 2_000, 2_500, 3_000, 3_500, 4_000, 5_000,
  6_000, 7_000, 8_000, 9_000, 10_000, 12_000, 15_000, 20_000, 25_000, 30_000, 40_000, 50_000, 60_000, 90_000, 120_000, 180_000, 240_000, 300_000, 600_000,
] as const;
/** The bucket of calls slower than the last bound (reported as "over 600 s" by the percentile). */
export const overflowLatency = 3_600_000;

/** The bucket a latency (milliseconds) falls in: the smallest bound not below it. */
export function latencyBucketOf(milliseconds: number): number {
  return latencyBounds.find((bound) => milliseconds <= bound) ?? overflowLatency;
}

const durationPattern = /"use_time_ms":(\d+)/;

/**
 * A log's duration in milliseconds: `other.use_time_ms` (written by the relay since the dashboard
 * shows milliseconds), else its whole seconds of use_time (older and imported logs).
 */
export function logDurationMs(log: { use_time: number; other: string | null }): number {
  const match = log.other ? durationPattern.exec(log.other) : null;
  return match?.[1] !== undefined ? Number(match[1]) : log.use_time * 1000;
}

/**
 * The `p` quantile (0 < p ≤ 1) of a histogram of bucket bound → count: the bound of the bucket the
 * p-th call falls in, so it reads "p of calls took at most this long". Undefined without calls.
 */
export function latencyPercentile(histogram: ReadonlyMap<number, number>, p: number): number | undefined {
  const buckets = [...histogram.entries()].filter(([, count]) => count > 0).sort(([left], [right]) => left - right);
  const total = buckets.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return undefined;
  const rank = Math.ceil(p * total);
  let seen = 0;
  for (const [bound, count] of buckets) {
    seen += count;
    if (seen >= rank) return bound;
  }
  return buckets[buckets.length - 1]?.[0];
}
