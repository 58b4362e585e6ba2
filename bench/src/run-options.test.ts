import { describe, expect, it } from 'vitest';
import { parseRunOptions } from './run-options.ts';

describe('parseRunOptions', () => {
  it('takes --streams for the turns or the profile, and refuses it alone', () => {
    expect(parseRunOptions(['--throughput-only', '--interleave=5', '--streams'], {}).streams).toBe(true);
    expect(parseRunOptions(['--profile', '--streams'], {}).streams).toBe(true);
    expect(parseRunOptions(['--throughput-only', '--interleave=5'], {}).streams).toBe(false);
    expect(() => parseRunOptions(['--streams'], {})).toThrow(/--streams chooses what the turns or the profile measure/);
  });

  it('takes --log-pages with a data set scale, which then does not start the data set comparison', () => {
    const options = parseRunOptions(['--log-pages', '--realistic-scale=0.1'], {});
    expect(options).toMatchObject({ logPages: true, realistic: false, realisticScale: 0.1 });
    expect(parseRunOptions(['--realistic-scale=0.1'], {})).toMatchObject({ logPages: false, realistic: true });
  });
});
