import { describe, expect, it } from 'vitest';
import { computeQuota, preConsumeQuota, pricePerMillion, resolvePricing, resolvedPerTablesLimit, worstCaseQuota, type PriceTables } from './pricing.ts';

const tables: PriceTables = {
  modelRatio: { 'gpt-4o': 1.25, 'gpt-4o-mini': 0.075, 'gpt-4o-audio-preview': 1.25, free: 0 },
  completionRatio: { 'gpt-4o': 4 },
  modelPrice: { 'dall-e-3': 0.04 },
  cacheRatio: { 'gpt-4o': 0.5 },
  createCacheRatio: {},
  audioRatio: { 'gpt-4o-audio-preview': 16 },
  audioCompletionRatio: { 'gpt-4o-audio-preview': 2 },
  groupRatio: { default: 1, vip: 0.5 },
  groupGroupRatio: { vip: { default: 0.8 } },
  toolPrices: { 'web_search:claude-opus*': 20 },
  quotaPerUnit: 500_000,
};
const groups = { userGroup: 'default', usingGroup: 'default' };

describe('pricing', () => {
  it("adds new-api's web search surcharge: US$ per 1,000 calls × calls × QuotaPerUnit × group ratio, a model prefix overriding the default", () => {
    const tables2 = { ...tables, modelRatio: { ...tables.modelRatio, 'claude-sonnet-4': 1.5, 'claude-opus-4': 7.5 } };
    const sonnet = resolvePricing(tables2, 'claude-sonnet-4', groups, false);
    const opus = resolvePricing(tables2, 'claude-opus-4', { userGroup: 'default', usingGroup: 'vip' }, false);
    if (!sonnet || !opus) throw new Error('priced');
    expect(sonnet.webSearchPrice).toBe(10);
    expect(opus.webSearchPrice).toBe(20);
    // Tokens: (1000 + 100 × 5) × 1.5 = 2250; 3 searches at US$10 per 1,000: 0.03 × 500,000 = 15,000.
    expect(computeQuota(sonnet, { promptTokens: 1000, completionTokens: 100, webSearchRequests: 3 }, 500_000)).toBe(2250 + 15_000);
    // vip group ratio 0.5 applies to both: (1500 × 7.5 × 0.5 = 5625) + 0.02 × 500,000 × 0.5 = 5000.
    expect(computeQuota(opus, { promptTokens: 1000, completionTokens: 100, webSearchRequests: 1 }, 500_000)).toBe(5625 + 5000);
    // An operator's 0 makes the tool free.
    const free = resolvePricing({ ...tables2, toolPrices: { web_search: 0 } }, 'claude-sonnet-4', groups, false);
    expect(free && computeQuota(free, { promptTokens: 1000, completionTokens: 100, webSearchRequests: 3 }, 500_000)).toBe(2250);
  });

  it('charges prompt plus completion at the completion ratio (spec formula)', () => {
    const pricing = resolvePricing(tables, 'gpt-4o', groups, false);
    if (!pricing) throw new Error('priced');
    // cost = G × R × (p + c × C) = 1 × 1.25 × (1000 + 200 × 4) = 2250
    expect(computeQuota(pricing, { promptTokens: 1000, completionTokens: 200 }, 500_000)).toBe(2250);
    expect(pricePerMillion(pricing)).toEqual({ prompt: 2.5, completion: 10 });
  });

  it('bills cached prompt tokens at the cache ratio, never negative', () => {
    const pricing = resolvePricing(tables, 'gpt-4o', groups, false);
    if (!pricing) throw new Error('priced');
    // (600 plain + 400 × 0.5 + 0 × 4) × 1.25 = 1000
    expect(computeQuota(pricing, { promptTokens: 1000, completionTokens: 0, cachedTokens: 400 }, 500_000)).toBe(1000);
    // A broken usage report with more cached than prompt tokens cannot go below zero.
    expect(computeQuota(pricing, { promptTokens: 100, completionTokens: 0, cachedTokens: 500 }, 500_000)).toBe(63);
  });

  it('bills 5-minute cache writes at the cache-write ratio and 1-hour writes at 2 / 1.25 of it', () => {
    const pricing = resolvePricing(tables, 'gpt-4o', groups, false);
    if (!pricing) throw new Error('priced');
    expect(pricing).toMatchObject({ cacheCreationRatio: 1.25, cacheCreation1hRatio: 2 });
    // (100 plain + 300 × 1.25 + 600 × 2) × 1.25 = 2093.75
    expect(computeQuota(pricing, { promptTokens: 1000, completionTokens: 0, cacheCreationTokens: 900, cacheCreation1hTokens: 600 }, 500_000)).toBe(2094);
    // Without the split every write is a 5-minute one; a 1h count above the writes is capped.
    expect(computeQuota(pricing, { promptTokens: 1000, completionTokens: 0, cacheCreationTokens: 900 }, 500_000)).toBe(1531);
    expect(computeQuota(pricing, { promptTokens: 1000, completionTokens: 0, cacheCreationTokens: 900, cacheCreation1hTokens: 5000 }, 500_000)).toBe(2375);
    const scaled = resolvePricing({ ...tables, createCacheRatio: { 'gpt-4o': 1.5 } }, 'gpt-4o', groups, false);
    expect(scaled?.cacheCreation1hRatio).toBeCloseTo(2.4, 12);
  });

  it('bills audio tokens with the audio ratios', () => {
    const pricing = resolvePricing(tables, 'gpt-4o-audio-preview', groups, false);
    if (!pricing) throw new Error('priced');
    // prompt: 100 text + 50 audio × 16 = 900; completion: 20 text × 4 + 10 audio × 16 × 2 = 400 → 1300 × 1.25
    expect(computeQuota(pricing, { promptTokens: 150, completionTokens: 30, audioInputTokens: 50, audioOutputTokens: 10 }, 500_000)).toBe(1625);
  });

  it('uses the per-call price before any ratio, times the group ratio', () => {
    const pricing = resolvePricing(tables, 'dall-e-3', { userGroup: 'default', usingGroup: 'vip' }, false);
    expect(pricing?.usePrice).toBe(true);
    if (!pricing) throw new Error('priced');
    expect(computeQuota(pricing, { promptTokens: 0, completionTokens: 0 }, 500_000, 2)).toBe(20_000);
    expect(preConsumeQuota(pricing, { promptTokens: 0, maxTokens: 0, floorTokens: 500, calls: 2 }, 500_000)).toBe(20_000);
  });

  it('applies the user-group × using-group special ratio over GroupRatio', () => {
    const pricing = resolvePricing(tables, 'gpt-4o-mini', { userGroup: 'vip', usingGroup: 'default' }, false);
    expect(pricing).toMatchObject({ groupRatio: 0.8, userGroupRatio: 0.8, completionRatio: 4 });
    expect(resolvePricing(tables, 'gpt-4o-mini', groups, false)).toMatchObject({ groupRatio: 1, userGroupRatio: -1 });
  });

  it('refuses unpriced models unless they are accepted, then uses ratio 37.5', () => {
    expect(resolvePricing(tables, 'mystery-model', groups, false)).toBeUndefined();
    expect(resolvePricing(tables, 'mystery-model', groups, true)?.modelRatio).toBe(37.5);
  });

  it('holds at least the floor plus max_tokens at the completion ratio', () => {
    const pricing = resolvePricing(tables, 'gpt-4o', groups, false);
    if (!pricing) throw new Error('priced');
    expect(preConsumeQuota(pricing, { promptTokens: 20, maxTokens: 100, floorTokens: 500, calls: 1 }, 500_000)).toBe(Math.round((500 + 400) * 1.25));
    // The hold covers the worst case of a request that names max_tokens.
    expect(computeQuota(pricing, { promptTokens: 20, completionTokens: 100 }, 500_000)).toBeLessThanOrEqual(1125);
  });

  it('charges at least one unit for a used priced model and nothing for a free one', () => {
    const mini = resolvePricing(tables, 'gpt-4o-mini', groups, false);
    const free = resolvePricing(tables, 'free', groups, false);
    if (!mini || !free) throw new Error('priced');
    expect(computeQuota(mini, { promptTokens: 1, completionTokens: 0 }, 500_000)).toBe(1);
    expect(computeQuota(free, { promptTokens: 100, completionTokens: 100 }, 500_000)).toBe(0);
    expect(computeQuota(mini, { promptTokens: 0, completionTokens: 0 }, 500_000)).toBe(0);
  });

  it('prices the worst case as the prompt estimate plus the completion ceiling, never below the hold', () => {
    const gpt4o = resolvePricing(tables, 'gpt-4o', groups, false);
    const audio = resolvePricing(tables, 'gpt-4o-audio-preview', groups, false);
    const image = resolvePricing(tables, 'dall-e-3', groups, false);
    if (!gpt4o || !audio || !image) throw new Error('priced');
    // (20 + 16,384 × 4) × 1.25, the most computeQuota can charge for that usage.
    expect(worstCaseQuota(gpt4o, 20, 16_384, 625)).toBe(computeQuota(gpt4o, { promptTokens: 20, completionTokens: 16_384 }, 500_000));
    expect(worstCaseQuota(gpt4o, 20, 0, 625)).toBe(625);
    // Audio output (16 × 2) costs more than text output: the ceiling is priced as audio.
    expect(worstCaseQuota(audio, 0, 100, 0)).toBe(computeQuota(audio, { promptTokens: 0, completionTokens: 100, audioOutputTokens: 100 }, 500_000));
    expect(worstCaseQuota(image, 100, 4_096, 20_000)).toBe(20_000);
  });

  it('resolves a model once per price tables: the same answer again, and new tables (a changed option) resolve anew', () => {
    const own: PriceTables = { ...tables, modelRatio: { ...tables.modelRatio } };
    const first = resolvePricing(own, 'gpt-4o', groups, false);
    expect(resolvePricing(own, 'gpt-4o', groups, false)).toBe(first);
    // Every input is in the key: the groups, and whether unpriced models are accepted.
    expect(resolvePricing(own, 'gpt-4o', { userGroup: 'default', usingGroup: 'vip' }, false)?.groupRatio).toBe(0.5);
    expect(resolvePricing(own, 'unpriced-model', groups, false)).toBeUndefined();
    expect(resolvePricing(own, 'unpriced-model', groups, true)).toBeDefined();
    expect(resolvePricing(own, 'unpriced-model', groups, false)).toBeUndefined();
    // The options store builds new tables on a change: the new ratio is read.
    const changed: PriceTables = { ...own, modelRatio: { ...own.modelRatio, 'gpt-4o': 2.5 } };
    expect(resolvePricing(changed, 'gpt-4o', groups, false)?.modelRatio).toBe(2.5);
    expect(resolvePricing(own, 'gpt-4o', groups, false)?.modelRatio).toBe(1.25);
  });

  it('keeps at most the limit of resolved pricings per tables, answering right past it', () => {
    const many: PriceTables = { ...tables, modelRatio: {} };
    const first = resolvePricing(many, 'model-0', groups, true);
    for (let index = 1; index <= resolvedPerTablesLimit; index += 1) resolvePricing(many, `model-${index}`, groups, true);
    // Past the limit the memo started over: model-0 is resolved again (an equal answer, a new object).
    const again = resolvePricing(many, 'model-0', groups, true);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
