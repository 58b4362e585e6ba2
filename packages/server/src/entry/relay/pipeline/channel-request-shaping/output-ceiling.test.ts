import { describe, expect, it } from 'vitest';
import { outputCeilingOf } from './output-ceiling.ts';

describe('the output ceiling of an upstream body', () => {
  it('reads every dialect’s field and keeps the largest', () => {
    expect(outputCeilingOf({ max_tokens: 100 })).toBe(100);
    expect(outputCeilingOf({ max_tokens: 100, max_completion_tokens: 300 })).toBe(300);
    expect(outputCeilingOf({ max_output_tokens: 50 })).toBe(50);
    expect(outputCeilingOf({ generationConfig: { maxOutputTokens: 2048 } })).toBe(2048);
  });

  it('is 0 when the body names none, or names it with something that is not a positive number', () => {
    expect(outputCeilingOf({})).toBe(0);
    expect(outputCeilingOf({ max_tokens: '9000', max_output_tokens: -1, generationConfig: null })).toBe(0);
  });
});
