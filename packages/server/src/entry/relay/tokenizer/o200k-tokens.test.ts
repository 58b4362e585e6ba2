import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { countO200kTokens } from './o200k-tokens.ts';

/** gpt-tokenizer's own o200k_base samples with their expected tokens (the package's test plans). */
function o200kSamples(): Array<{ sample: string; tokens: number }> {
  const plans = readFileSync(createRequire(import.meta.url).resolve('gpt-tokenizer/data/TestPlans.txt'), 'utf8');
  return plans
    .split('\n\n')
    .map((block) => /^EncodingName: o200k_base\nSample: ([\s\S]*)\nEncoded: \[(.*)\]$/.exec(block.trim()))
    .filter((match) => match !== null)
    .map((match) => ({ sample: match[1]!, tokens: match[2]!.trim() === '' ? 0 : match[2]!.split(',').length }));
}

/** gpt-tokenizer with special-token text treated as ordinary text, as we count it. */
const reference = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

describe('countO200kTokens', () => {
  it('counts the published o200k_base samples exactly', () => {
    const samples = o200kSamples();
    expect(samples.length).toBeGreaterThan(40);
    for (const { sample, tokens } of samples) expect(countO200kTokens(sample), sample).toBe(tokens);
  });

  it('counts as the reference tokenizer on mixed scripts, whitespace, digits, contractions and emoji', () => {
    const fragments = [
      'a',
      'th',
      'ing',
      ' ',
      '  ',
      '\n',
      '\r\n',
      '\t',
      '1',
      '23',
      '4567',
      '.',
      ',',
      '!?',
      "'s",
      "'LL",
      "'Re",
      '世界',
      'こんにちは',
      '한국어',
      'Привет',
      'é',
      'É',
      'ß',
      'e\u0301',
      '😀',
      '👍🏽',
      '🇪🇸',
      '\u00a0',
      '\u3000',
      '<|endoftext|>',
      '<|im_start|>',
      '/',
      '//',
      '\\',
      '{"k": [1, 2]}',
      'XYZ',
      'CamelCase',
      'snake_case',
      '\ud800',
    ];
    let state = 42;
    const random = () => (state = (state * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff;
    for (let round = 0; round < 3_000; round += 1) {
      const text = Array.from({ length: Math.floor(random() * 40) }, () => fragments[Math.floor(random() * fragments.length)]).join('');
      expect(countO200kTokens(text), JSON.stringify(text)).toBe(reference(text));
    }
  });

  it('counts long runs without a break (the heap path) as the reference does', () => {
    for (const text of [
      'a'.repeat(5_000),
      'ab'.repeat(3_000),
      ' '.repeat(5_000),
      'x'.repeat(129),
      'Supercalifragilistic'.repeat(100),
      '世界'.repeat(2_000),
      '=-'.repeat(700),
    ]) {
      expect(countO200kTokens(text), `${text.slice(0, 12)}… (${text.length})`).toBe(reference(text));
    }
  });

  it('counts a 20,000-letter word as the reference does', () => {
    // The reference rescans after every merge (quadratic: 20 s at 200,000 letters, where ours takes 0.1 s).
    const word = 'qwertyuiopasdfghjklzxcvbnm'.repeat(770);
    expect(countO200kTokens(word)).toBe(reference(word));
  });
});
