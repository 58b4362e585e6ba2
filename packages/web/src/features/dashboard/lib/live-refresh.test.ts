import { describe, expect, it } from 'vitest';
import { isLive, liveRefetchInterval, liveRefreshSeconds } from './live-refresh.ts';

describe('live refresh', () => {
  const now = 1_760_000_000_000;
  it('refetches while the range reaches the present and stops for a past range', () => {
    expect(isLive(now / 1000 + 3600, now)).toBe(true);
    expect(liveRefetchInterval(now / 1000 + 1, now)).toBe(liveRefreshSeconds * 1000);
    expect(isLive(now / 1000, now)).toBe(false);
    expect(liveRefetchInterval(now / 1000 - 60, now)).toBe(false);
  });
});
