import { describe, expect, it } from 'vitest';
import { parseRunOptions } from './run-options.ts';

describe('parseRunOptions', () => {
  it('takes --streams for the turns or the profile, and refuses it alone', () => {
    expect(parseRunOptions(['--throughput-only', '--interleave=5', '--streams'], {}).streams).toBe(true);
    expect(parseRunOptions(['--profile', '--streams'], {}).streams).toBe(true);
    expect(parseRunOptions(['--throughput-only', '--interleave=5'], {}).streams).toBe(false);
    expect(() => parseRunOptions(['--streams'], {})).toThrow(/--streams chooses what the turns or the profile measure/);
  });

  it('takes --profile-cache-hit as a profile of non-stream hits, and refuses it with --streams', () => {
    const options = parseRunOptions(['--profile-cache-hit'], {});
    expect(options.profile).toBe(true);
    expect(options.profileCacheHit).toBe(true);
    expect(parseRunOptions(['--profile'], {}).profileCacheHit).toBe(false);
    expect(() => parseRunOptions(['--profile-cache-hit', '--streams'], {})).toThrow(/--profile-cache-hit profiles non-stream hits/);
  });

  it('takes --log-pages with a data set scale, which then does not start the data set comparison', () => {
    const options = parseRunOptions(['--log-pages', '--realistic-scale=0.1'], {});
    expect(options).toMatchObject({ logPages: true, realistic: false, realisticScale: 0.1 });
    expect(parseRunOptions(['--realistic-scale=0.1'], {})).toMatchObject({ logPages: false, realistic: true });
  });
});
