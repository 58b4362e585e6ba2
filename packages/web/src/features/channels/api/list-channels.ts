import { api } from '../../../lib/api-client.ts';
import type { Channel, ChannelListFilters } from './channel-types.ts';

/** Newer servers wrap the page as `{items}`; the classic answer is the array itself. */
export function channelRows(data: Channel[] | { items?: Channel[] | null } | null): Channel[] {
  if (Array.isArray(data)) return data;
  return data?.items ?? [];
}

/** `GET /api/channel/?p=&page_size=&id_sort=&tag_mode=`: one page (from 0) of channels. */
export function listChannels(page: number, size: number, filters: ChannelListFilters, signal?: AbortSignal): Promise<Channel[]> {
  return api
    .get<Channel[] | { items?: Channel[] | null } | null>(
      '/api/channel/',
      { p: page, page_size: size, id_sort: filters.idSort, tag_mode: filters.tagMode },
      signal,
    )
    .then(channelRows);
}
