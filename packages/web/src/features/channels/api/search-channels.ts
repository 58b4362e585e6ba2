import { api } from '../../../lib/api-client.ts';
import type { Channel, ChannelListFilters } from './channel-types.ts';
import { channelRows } from './list-channels.ts';

export interface ChannelSearch {
  keyword: string;
  group: string;
  model: string;
}

/** `GET /api/channel/search?keyword=&group=&model=&id_sort=&tag_mode=`: keyword matches id, name or key. */
export function searchChannels(search: ChannelSearch, filters: ChannelListFilters, signal?: AbortSignal): Promise<Channel[]> {
  return api
    .get<Channel[] | { items?: Channel[] | null } | null>('/api/channel/search', { ...search, id_sort: filters.idSort, tag_mode: filters.tagMode }, signal)
    .then(channelRows);
}
