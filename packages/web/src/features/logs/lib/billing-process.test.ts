import type { LogView } from '@switchboard/contracts';
import { describe, expect, it } from 'vitest';
import { billingSteps } from './billing-process.ts';
import { durationColour, firstTokenColour } from './log-other.ts';

const entry = { prompt_tokens: 1000, completion_tokens: 500 } as LogView;

describe('billingSteps', () => {
  it('explains a per-token charge with the spec formula', () => {
    const steps = billingSteps(entry, { model_ratio: 0.075, completion_ratio: 4, group_ratio: 1 }, 500_000);
    expect(steps.map((step) => step.key)).toEqual(['promptPrice', 'completionPrice', 'tokenTotal']);
    expect(steps[0]?.values.price).toBe('$0.15');
    expect(steps[1]?.values.price).toBe('$0.6');
    // (1000 + 500 × 4) × 0.075 = 225 units = $0.00045
    expect(steps[2]?.values.total).toBe('$0.00045');
  });

  it('explains a per-call charge as price × group ratio', () => {
    expect(billingSteps(entry, { model_price: 0.04, group_ratio: 1.5 }, 500_000)).toEqual([
      { key: 'perCall', values: { price: '$0.04', group: 1.5, total: '$0.06' } },
    ]);
  });

  it('has nothing to explain without ratios', () => {
    expect(billingSteps(entry, {}, 500_000)).toEqual([]);
  });
});

describe('timing colours', () => {
  it('follow the spec thresholds', () => {
    expect([100, 101, 299, 300].map(durationColour)).toEqual(['green', 'orange', 'orange', 'red']);
    expect([2.9, 3, 9.9, 10].map(firstTokenColour)).toEqual(['green', 'orange', 'orange', 'red']);
  });
});
