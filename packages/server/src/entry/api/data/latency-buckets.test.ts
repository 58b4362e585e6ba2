import { describe, expect, it } from 'vitest';
import { latencyBucketOf, latencyPercentile, logDurationMs, overflowLatency } from './latency-buckets.ts';

describe('latency buckets', () => {
  it('puts a latency in the smallest bound not below it, in milliseconds', () => {
    expect(latencyBucketOf(0)).toBe(0);
    expect(latencyBucketOf(12)).toBe(20);
    expect(latencyBucketOf(180)).toBe(200);
    expect(latencyBucketOf(7_000)).toBe(7_000);
    expect(latencyBucketOf(11_000)).toBe(12_000);
    expect(latencyBucketOf(600_000)).toBe(600_000);
    expect(latencyBucketOf(600_001)).toBe(overflowLatency);
  });

  it("reads a log's milliseconds from other.use_time_ms, else from its whole seconds", () => {
    expect(logDurationMs({ use_time: 0, other: '{"frt":12,"use_time_ms":237,"model_ratio":1}' })).toBe(237);
    expect(logDurationMs({ use_time: 3, other: '{"frt":-1000}' })).toBe(3_000);
    expect(logDurationMs({ use_time: 2, other: '' })).toBe(2_000);
    expect(logDurationMs({ use_time: 1, other: null })).toBe(1_000);
  });

  it('reads percentiles as the bound the p-th call falls under', () => {
    // 100 calls: 50 under 100 ms, 40 under 300 ms, 9 under 12 s, 1 under 90 s.
    const histogram = new Map([
      [300, 40],
      [100, 50],
      [12_000, 9],
      [90_000, 1],
    ]);
    expect(latencyPercentile(histogram, 0.5)).toBe(100);
    expect(latencyPercentile(histogram, 0.51)).toBe(300);
    expect(latencyPercentile(histogram, 0.9)).toBe(300);
    expect(latencyPercentile(histogram, 0.99)).toBe(12_000);
    expect(latencyPercentile(histogram, 1)).toBe(90_000);
    expect(latencyPercentile(new Map(), 0.5)).toBeUndefined();
    expect(latencyPercentile(new Map([[5, 0]]), 0.5)).toBeUndefined();
  });
});
