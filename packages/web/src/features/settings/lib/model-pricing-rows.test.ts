import { describe, expect, it } from 'vitest';
import { isNumeric, optionsFromRows, rebaseRows, rowsFromOptions, type PricingRow } from './model-pricing-rows.ts';

describe('rowsFromOptions', () => {
  it('merges the three maps into one sorted row per model, keeping absent values empty', () => {
    const rows = rowsFromOptions({ ModelPrice: '{"mj": 0.1}', ModelRatio: '{"gpt-4o": 2.5, "mj": 1}', CompletionRatio: '{"gpt-4o": 4}' });
    expect(rows).toEqual([
      { name: 'gpt-4o', price: '', ratio: '2.5', completionRatio: '4' },
      { name: 'mj', price: '0.1', ratio: '1', completionRatio: '' },
    ]);
  });

  it('treats broken or non-object JSON as empty', () => {
    expect(rowsFromOptions({ ModelPrice: '{broken', ModelRatio: '[1, 2]' })).toEqual([]);
  });
});

describe('optionsFromRows', () => {
  it('drops the ratios of a model with a fixed price, which is billed per call', () => {
    const options = optionsFromRows([
      { name: 'mj', price: '0.1', ratio: '3', completionRatio: '2' },
      { name: 'gpt-4o', price: '', ratio: '2.5', completionRatio: '' },
    ]);
    expect(JSON.parse(options.ModelPrice)).toEqual({ mj: 0.1 });
    expect(JSON.parse(options.ModelRatio)).toEqual({ 'gpt-4o': 2.5 });
    expect(JSON.parse(options.CompletionRatio)).toEqual({});
  });
});

describe('isNumeric', () => {
  it('accepts empty text, integers, decimals and exponents, and refuses anything else', () => {
    for (const text of ['', ' ', '3', '0.02', '-1', '.5', '1e-3']) expect(isNumeric(text)).toBe(true);
    for (const text of ['abc', '1,5', '1.2.3', 'Infinity', '0x10']) expect(isNumeric(text)).toBe(false);
  });
});

describe('rebaseRows', () => {
  const row = (name: string, ratio: string, price = ''): PricingRow => ({ name, price, ratio, completionRatio: '' });

  it("keeps the operator's edits, additions and deletions and takes every other row from the new stored prices", () => {
    const before = [row('a', '1'), row('b', '2'), row('c', '3'), row('d', '4')];
    // Edited b, deleted c, added x; a and d untouched.
    const edited = [row('x', '9'), row('a', '1'), row('b', '20'), row('d', '4')];
    // Meanwhile someone stored new values for a, b and c, dropped d and added e.
    const after = [row('a', '1.5'), row('b', '2.5'), row('c', '3.5'), row('e', '5')];
    expect(rebaseRows(edited, before, after)).toEqual([row('x', '9'), row('a', '1.5'), row('b', '20'), row('e', '5')]);
  });

  it('is the stored rows when nothing was edited', () => {
    const before = [row('a', '1')];
    const after = [row('a', '2', '0.1'), row('b', '3')];
    expect(rebaseRows(before, before, after)).toEqual(after);
  });
});
