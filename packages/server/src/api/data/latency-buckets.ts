/**
 * Upper bounds (whole seconds, as logs.use_time is kept) of the latency buckets the per-channel view
 * counts: every second up to 10, then widening steps, so a channel-hour has at most this many rows
 * per type however varied its calls. Above the last bound a call counts in `overflowLatency`.
 */
export const latencyBounds = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 50, 60, 90, 120, 180, 240, 300, 600] as const;
/** The bucket of calls slower than the last bound (reported as "over 600 s" by the percentile). */
export const overflowLatency = 3600;

/** The bucket a latency falls in: the smallest bound not below it. */
export function latencyBucketOf(seconds: number): number {
  return latencyBounds.find((bound) => seconds <= bound) ?? overflowLatency;
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
