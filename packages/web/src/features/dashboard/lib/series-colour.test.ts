import { describe, expect, it } from 'vitest';
import { seriesColour, seriesPalette } from './series-colour.ts';

describe('series colour', () => {
  it('gives a name the same palette colour every time', () => {
    expect(seriesColour('gpt-4o-mini')).toBe(seriesColour('gpt-4o-mini'));
    expect(seriesPalette).toContain(seriesColour('gpt-4o-mini'));
    expect(seriesPalette).toContain(seriesColour(''));
  });

  it('spreads a handful of model names over several colours', () => {
    const names = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-haiku', 'claude-sonnet-4', 'gemini-2.5-pro', 'deepseek-chat', 'o3-mini', 'qwen-max'];
    expect(new Set(names.map(seriesColour)).size).toBeGreaterThanOrEqual(5);
  });
});
