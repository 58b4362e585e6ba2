import { ChannelStatus } from '@switchboard/contracts';
import type { OptionStore } from '../../../../domain/options/option-store.ts';
import { ChannelCache } from '../../cache/channel-cache.ts';
import type { AbilityRow, ChannelRow, RelayCacheRepository } from '../../cache/relay-cache.repository.ts';

/**
 * A deployment of `channels` channels spread over 500 models in 20 groups (as the bench's realistic
 * data set), plus the route under measurement: `hot-model` in `default`, served by `hotChannels`
 * channels of one tier. Rows as the repository returns them; only the columns the cache reads matter.
 */
export function syntheticDeployment(channels: number, hotChannels: number): { channels: ChannelRow[]; abilities: AbilityRow[] } {
  const channelRows: ChannelRow[] = [];
  const abilities: AbilityRow[] = [];
  const add = (id: number, group: string, model: string, weight: number) => {
    channelRows.push({
      id,
      type: 1,
      name: `c${id}`,
      status: ChannelStatus.enabled,
      key: `k${id}`,
      models: model,
      group,
      weight,
      priority: 0,
    } as unknown as ChannelRow);
    abilities.push({ group, model, channel_id: id, enabled: 1, priority: 0, weight, tag: null } as unknown as AbilityRow);
  };
  for (let id = 1; id <= channels; id += 1) add(id, `group-${id % 20}`, `model-${id % 500}`, 1 + (id % 7));
  for (let hot = 1; hot <= hotChannels; hot += 1) add(channels + hot, 'default', 'hot-model', hot);
  return { channels: channelRows, abilities };
}

/** The relay's channel cache loaded with those rows (no database). */
export async function channelCacheOf(rows: { channels: ChannelRow[]; abilities: AbilityRow[] }): Promise<ChannelCache> {
  const repository = { allChannels: async () => rows.channels, allAbilities: async () => rows.abilities } as unknown as RelayCacheRepository;
  const cache = new ChannelCache(repository);
  await cache.reload();
  return cache;
}

/** The only option the router reads, set to one strategy for every group. */
export const routingOptions = (strategy: string) => ({ get: () => JSON.stringify({ default: strategy }), onChange: () => undefined }) as unknown as OptionStore;
