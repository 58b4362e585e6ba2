import { describe, expect, it } from 'vitest';
import { medianBy, percentile, slope, sortedCopy, spread } from './stats.ts';

describe('bench statistics', () => {
  it('takes percentiles by nearest rank', () => {
    const values = sortedCopy(Array.from({ length: 100 }, (_, index) => 100 - index));
    expect([percentile(values, 50), percentile(values, 90), percentile(values, 99), percentile(values, 100)]).toEqual([50, 90, 99, 100]);
    expect(percentile(sortedCopy([7]), 99)).toBe(7);
    expect(percentile(sortedCopy([]), 50)).toBeNaN();
  });

  it('sorts numerically, not as text', () => {
    expect(spread([10, 9, 100, 1])).toEqual({ count: 4, p50: 9, p90: 100, p99: 100, max: 100 });
  });

  it('fits a least-squares slope for memory growth', () => {
    expect(
      slope([
        { x: 0, y: 1 },
        { x: 1, y: 3 },
        { x: 2, y: 5 },
      ]),
    ).toBe(2);
    expect(slope([{ x: 1, y: 1 }])).toBe(0);
  });

  it('picks the median round by a figure, ignoring rounds without one', () => {
    const rounds = [{ cpu: 300 }, { cpu: 250 }, { cpu: undefined }, { cpu: 410 }, { cpu: Number.NaN }];
    expect(medianBy(rounds, (round) => round.cpu)).toEqual({ cpu: 300 });
    expect(medianBy([{ cpu: 2 }, { cpu: 1 }], (round) => round.cpu)).toEqual({ cpu: 1 });
    expect(medianBy([], (round: { cpu: number }) => round.cpu)).toBeUndefined();
  });
});
