import { describe, expect, it } from 'vitest';
import { ExpectedCompletion } from './expected-completion.ts';

describe('expected completion tokens', () => {
  it('knows nothing before the first answer, then follows recent answers most', () => {
    const expected = new ExpectedCompletion();
    expect(expected.of('m')).toBeUndefined();
    expected.observe('m', 100);
    expect(expected.of('m')).toBe(100);
    for (let answer = 0; answer < 30; answer += 1) expected.observe('m', 2_000);
    expect(expected.of('m')).toBeGreaterThan(1_990);
    expect(expected.of('m')).toBeLessThanOrEqual(2_000);
    expect(expected.of('other')).toBeUndefined();
  });

  it('ignores nonsense counts', () => {
    const expected = new ExpectedCompletion();
    expected.observe('m', Number.NaN);
    expected.observe('m', -3);
    expect(expected.of('m')).toBeUndefined();
  });
});
