import type { ChannelRecord } from '../cache/channel-cache.ts';

/**
 * The key of a multi-key channel an attempt uses, as new-api's GetNextEnabledKey chooses it:
 * `polling` walks the keys in order across requests (from `multi_key_polling_index`, wrapping),
 * `random` draws one; keys disabled in `multi_key_status_list` are skipped in both. `allowed` adds
 * this gateway's own say (the key's circuit breaker, the usage-aware strategy's per-key ceilings):
 * a key it refuses is passed over while another enabled key is allowed, and used only as the last
 * resort. The polling position is this process's (new-api keeps it in memory too).
 */
export class KeyChoice {
  private readonly nextPolled = new Map<number, number>();

  pick(channel: ChannelRecord, random: () => number, allowed: (keyIndex: number) => boolean): number {
    const keys = Math.max(1, channel.keys.length);
    const disabled = channel.multiKey?.disabledKeys;
    const enabled = (index: number) => !disabled?.has(index);
    if (channel.multiKey?.mode === 'polling') {
      const start = (this.nextPolled.get(channel.id) ?? channel.multiKey.pollingIndex) % keys;
      let firstEnabled = -1;
      for (let offset = 0; offset < keys; offset += 1) {
        const index = (start + offset) % keys;
        if (!enabled(index)) continue;
        if (firstEnabled < 0) firstEnabled = index;
        if (allowed(index)) return this.polled(channel.id, index, keys);
      }
      return this.polled(channel.id, firstEnabled >= 0 ? firstEnabled : start, keys);
    }
    const preferred: number[] = [];
    const enabledKeys: number[] = [];
    for (let index = 0; index < keys; index += 1) {
      if (!enabled(index)) continue;
      enabledKeys.push(index);
      if (allowed(index)) preferred.push(index);
    }
    const from = preferred.length > 0 ? preferred : enabledKeys;
    if (from.length === 0) return Math.floor(random() * keys);
    return from[Math.floor(random() * from.length)] ?? 0;
  }

  private polled(channelId: number, index: number, keys: number): number {
    this.nextPolled.set(channelId, (index + 1) % keys);
    return index;
  }
}
