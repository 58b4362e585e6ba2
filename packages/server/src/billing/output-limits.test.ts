import { describe, expect, it } from 'vitest';
import { defaultOutputLimit, modelOutputLimit } from './output-limits.ts';

describe('model output limits', () => {
  it('knows the big families, specific names before their family, whatever the case', () => {
    expect(modelOutputLimit('gpt-4o-mini')).toBe(16_384);
    expect(modelOutputLimit('gpt-4-turbo-2024-04-09')).toBe(4_096);
    expect(modelOutputLimit('gpt-4-0613')).toBe(8_192);
    expect(modelOutputLimit('GPT-4.1-nano')).toBe(32_768);
    expect(modelOutputLimit('o1-mini')).toBe(65_536);
    expect(modelOutputLimit('claude-3-5-haiku-20241022')).toBe(8_192);
    expect(modelOutputLimit('claude-opus-4-1-20250805')).toBe(32_000);
    expect(modelOutputLimit('claude-opus-4-6')).toBe(128_000);
    expect(modelOutputLimit('gemini-2.5-pro')).toBe(65_536);
    expect(modelOutputLimit('deepseek-chat')).toBe(8_192);
  });

  it('gives unknown models the default, and the same answer the second time', () => {
    expect(modelOutputLimit('qwen-max')).toBe(defaultOutputLimit);
    expect(modelOutputLimit('qwen-max')).toBe(defaultOutputLimit);
  });
});
