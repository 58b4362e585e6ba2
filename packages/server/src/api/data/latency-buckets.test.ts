import { describe, expect, it } from 'vitest';
import { latencyBucketOf, latencyPercentile, overflowLatency } from './latency-buckets.ts';

describe('latency buckets', () => {
  it('puts a latency in the smallest bound not below it', () => {
    expect(latencyBucketOf(0)).toBe(0);
    expect(latencyBucketOf(7)).toBe(7);
    expect(latencyBucketOf(11)).toBe(12);
    expect(latencyBucketOf(600)).toBe(600);
    expect(latencyBucketOf(601)).toBe(overflowLatency);
  });

  it('reads percentiles as the bound the p-th call falls under', () => {
    // 100 calls: 50 at 1 s, 40 at 3 s, 9 at 12 s, 1 at 90 s.
    const histogram = new Map([
      [3, 40],
      [1, 50],
      [12, 9],
      [90, 1],
    ]);
    expect(latencyPercentile(histogram, 0.5)).toBe(1);
    expect(latencyPercentile(histogram, 0.51)).toBe(3);
    expect(latencyPercentile(histogram, 0.9)).toBe(3);
    expect(latencyPercentile(histogram, 0.99)).toBe(12);
    expect(latencyPercentile(histogram, 1)).toBe(90);
    expect(latencyPercentile(new Map(), 0.5)).toBeUndefined();
    expect(latencyPercentile(new Map([[5, 0]]), 0.5)).toBeUndefined();
  });
});
