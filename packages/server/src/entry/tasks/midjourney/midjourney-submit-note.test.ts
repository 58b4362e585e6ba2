import { describe, expect, it } from 'vitest';
import type { ModelPricing } from '../../../domain/billing/pricing.ts';
import { midjourneySubmitNote } from './midjourney-submit-note.ts';

const pricing = (fields: Partial<ModelPricing>): ModelPricing => ({
  usePrice: true,
  modelPrice: 0.1,
  modelRatio: 0,
  completionRatio: 1,
  cacheRatio: 1,
  cacheCreationRatio: 1,
  cacheCreation1hRatio: 1,
  audioRatio: 1,
  audioCompletionRatio: 1,
  groupRatio: 1,
  userGroupRatio: -1,
  webSearchPrice: 0,
  ...fields,
});

describe('the note of an accepted drawing task', () => {
  it("says new-api's line and names it with the same figures", () => {
    expect(midjourneySubmitNote({ model: 'mj_imagine', pricing: pricing({ groupRatio: 1.5 }), quota: 75_000 }, 'IMAGINE', '1712345')).toEqual({
      text: '模型固定价格 0.10，分组倍率 1.50，操作 IMAGINE，ID 1712345',
      key: 'log.drawing_submitted',
      params: { price: '0.10', group_ratio: '1.50', action: 'IMAGINE', mj_id: '1712345' },
    });
  });

  it('writes - for a model priced by ratio, and leaves the ID out when the proxy gave none', () => {
    expect(midjourneySubmitNote({ model: 'mj_upscale', pricing: pricing({ usePrice: false, modelRatio: 2 }), quota: 500_000 }, 'UPSCALE', '')).toEqual({
      text: '模型固定价格 -，分组倍率 1.00，操作 UPSCALE',
      key: 'log.drawing_submitted_without_id',
      params: { price: '-', group_ratio: '1.00', action: 'UPSCALE' },
    });
  });
});
