import { describe, expect, it } from 'vitest';
import { parseRunOptions } from './run-options.ts';

describe('parseRunOptions', () => {
  it('takes --streams for the turns or the profile, and refuses it alone', () => {
    expect(parseRunOptions(['--throughput-only', '--interleave=5', '--streams'], {}).streams).toBe(true);
    expect(parseRunOptions(['--profile', '--streams'], {}).streams).toBe(true);
    expect(parseRunOptions(['--throughput-only', '--interleave=5'], {}).streams).toBe(false);
    expect(() => parseRunOptions(['--streams'], {})).toThrow(/--streams chooses what the turns or the profile measure/);
  });
});
