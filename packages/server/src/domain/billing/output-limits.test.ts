import { describe, expect, it } from 'vitest';
import { modelOutputLimit, type OutputLimitSettings } from './output-limits.ts';

const defaults: OutputLimitSettings = { perModel: {}, fallback: 16_384 };

describe('model output limits', () => {
  it('knows the big families, specific names before their family, whatever the case', () => {
    expect(modelOutputLimit('gpt-4o-mini', defaults)).toBe(16_384);
    expect(modelOutputLimit('gpt-4-turbo-2024-04-09', defaults)).toBe(4_096);
    expect(modelOutputLimit('gpt-4-0613', defaults)).toBe(8_192);
    expect(modelOutputLimit('GPT-4.1-nano', defaults)).toBe(32_768);
    expect(modelOutputLimit('o1-mini', defaults)).toBe(65_536);
    expect(modelOutputLimit('claude-3-5-haiku-20241022', defaults)).toBe(8_192);
    expect(modelOutputLimit('claude-opus-4-1-20250805', defaults)).toBe(32_000);
    expect(modelOutputLimit('claude-opus-4-6', defaults)).toBe(128_000);
    expect(modelOutputLimit('gemini-2.5-pro', defaults)).toBe(65_536);
    expect(modelOutputLimit('deepseek-chat', defaults)).toBe(8_192);
  });

  it('gives unknown models the configured default, and the same answer the second time', () => {
    expect(modelOutputLimit('qwen-max', defaults)).toBe(16_384);
    expect(modelOutputLimit('qwen-max', { perModel: {}, fallback: 2_048 })).toBe(2_048);
  });

  it("takes the administrator's limit for a model before the built-in table", () => {
    const settings: OutputLimitSettings = { perModel: { 'gpt-4o-mini': 1_000, 'qwen-max': 8_000, broken: -5 }, fallback: 16_384 };
    expect(modelOutputLimit('gpt-4o-mini', settings)).toBe(1_000);
    expect(modelOutputLimit('qwen-max', settings)).toBe(8_000);
    expect(modelOutputLimit('broken', settings)).toBe(16_384);
    expect(modelOutputLimit('constructor', settings)).toBe(16_384);
  });
});
