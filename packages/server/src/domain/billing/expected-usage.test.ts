import { describe, expect, it } from 'vitest';
import { ExpectedUsage } from './expected-usage.ts';

describe('expected usage', () => {
  it('knows nothing before the first answer, then follows recent answers most', () => {
    const expected = new ExpectedUsage();
    expect(expected.of('m')).toBeUndefined();
    expected.observe('m', 3, 100);
    expect(expected.of('m')).toEqual({ promptBeyondEstimate: 3, completionTokens: 100 });
    for (let answer = 0; answer < 30; answer += 1) expected.observe('m', 10, 2_000);
    const usual = expected.of('m')!;
    expect(usual.completionTokens).toBeGreaterThan(1_990);
    expect(usual.completionTokens).toBeLessThanOrEqual(2_000);
    expect(usual.promptBeyondEstimate).toBeCloseTo(10, 0);
    expect(expected.of('other')).toBeUndefined();
  });

  it('ignores nonsense counts', () => {
    const expected = new ExpectedUsage();
    expected.observe('m', Number.NaN, 5);
    expected.observe('m', 0, -3);
    expect(expected.of('m')).toBeUndefined();
  });
});
