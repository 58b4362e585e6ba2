import { describe, expect, it } from 'vitest';
import type { ChannelRecord, PriorityTier } from '../cache/channel-cache.ts';
import { isRetryableStatus, mapModel, mapStatus, selectChannel } from './channel-selector.ts';

const channel = (id: number) => ({ id }) as ChannelRecord;
const tiers: PriorityTier[] = [
  {
    priority: 10,
    channels: [
      { channel: channel(1), weight: 3 },
      { channel: channel(2), weight: 1 },
    ],
  },
  { priority: 5, channels: [{ channel: channel(3), weight: 0 }] },
  {
    priority: 0,
    channels: [
      { channel: channel(4), weight: 0 },
      { channel: channel(5), weight: 0 },
    ],
  },
];

describe('channel selection', () => {
  it('weights picks inside the highest tier', () => {
    expect(selectChannel(tiers, 0, new Set(), () => 0.5)?.id).toBe(1);
    expect(selectChannel(tiers, 0, new Set(), () => 0.9)?.id).toBe(2);
  });

  it('drops one tier per retry and never repeats a channel', () => {
    expect(selectChannel(tiers, 1, new Set([1]), () => 0)?.id).toBe(3);
    expect(selectChannel(tiers, 2, new Set([1, 3]), () => 0.99)?.id).toBe(5);
    // Past the lowest tier: the lowest tier, then anything untried.
    expect(selectChannel(tiers, 5, new Set([4, 5]), () => 0)?.id).toBe(1);
    expect(selectChannel(tiers, 3, new Set([1, 2, 3, 4, 5]), () => 0)).toBeUndefined();
  });

  it('treats all-zero weights as equal', () => {
    const picks = new Set([0, 0.49, 0.51, 0.99].map((point) => selectChannel([tiers[2] as PriorityTier], 0, new Set(), () => point)?.id));
    expect(picks).toEqual(new Set([4, 5]));
  });

  it('follows model mappings transitively and stops at cycles', () => {
    expect(mapModel({ a: 'b', b: 'c' }, 'a')).toBe('c');
    expect(mapModel({ a: 'b', b: 'a' }, 'a')).toBe('b');
    expect(mapModel({}, 'a')).toBe('a');
  });

  it('maps status codes and decides retries', () => {
    expect(mapStatus({ 429: '500' }, 429)).toBe(500);
    expect(mapStatus({ 429: 'nonsense' }, 429)).toBe(429);
    for (const status of [401, 403, 404, 429, 500, 502, 503]) expect(isRetryableStatus(status)).toBe(true);
    for (const status of [400, 408, 413, 422, 504, 524]) expect(isRetryableStatus(status)).toBe(false);
  });
});
