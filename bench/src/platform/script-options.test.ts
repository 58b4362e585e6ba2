import { describe, expect, it } from 'vitest';
import { scriptOptions } from './script-options.ts';

describe('scriptOptions', () => {
  it('reads --name=value by name, a bare --flag as yes, and keeps an = inside the value', () => {
    const options = scriptOptions(['--runs=3', '--cache-hit', '--dsn=postgres://u@h/db?x=1']);
    expect(options.get('--runs')).toBe('3');
    expect(options.get('--cache-hit')).toBe('yes');
    expect(options.get('--dsn')).toBe('postgres://u@h/db?x=1');
    expect(options.has('--baseline')).toBe(false);
  });
});
