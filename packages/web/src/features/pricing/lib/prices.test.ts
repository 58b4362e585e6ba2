import type { PricingEntry } from '@switchboard/contracts';
import { describe, expect, it } from 'vitest';
import { fuzzyMatch, priceOf } from './prices.ts';

const perToken: PricingEntry = {
  model_name: 'gpt-4o-mini',
  quota_type: 0,
  model_ratio: 0.075,
  completion_ratio: 4,
  model_price: 0,
  owner_by: '',
  enable_groups: ['default'],
  supported_endpoint_types: ['openai'],
};

describe('priceOf', () => {
  it('shows per-token prices per million tokens: ratio × 2 × group ratio, completion × completion ratio', () => {
    expect(priceOf(perToken, 2, '1M')).toEqual({ kind: 'token', prompt: 0.3, completion: 1.2 });
    expect(priceOf(perToken, 1, '1K').prompt).toBeCloseTo(0.00015);
  });

  it('shows fixed-price models per call', () => {
    expect(priceOf({ ...perToken, quota_type: 1, model_price: 0.04 }, 0.5, '1M')).toEqual({ kind: 'call', prompt: 0.02, completion: 0 });
  });
});

describe('fuzzyMatch', () => {
  it('matches substrings and in-order letters, case-insensitively', () => {
    expect(fuzzyMatch('gpt-4o-mini', 'G4OM')).toBe(true);
    expect(fuzzyMatch('gpt-4o-mini', '4o-mini')).toBe(true);
    expect(fuzzyMatch('gpt-4o-mini', 'claude')).toBe(false);
    expect(fuzzyMatch('anything', '  ')).toBe(true);
  });
});
