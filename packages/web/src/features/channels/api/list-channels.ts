import type { ChannelView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** Every channel query (list, search, one channel, catalogues) lives under this key; saving invalidates it. */
export const channelsQueryKey = ['channels'] as const;

/** How the list is ordered and shown; both the list and the search send them. */
export interface ChannelListFilters {
  idSort: boolean;
  tagMode: boolean;
}

/** Newer servers wrap the page as `{items}`; the classic answer is the array itself. */
export function channelRows(data: ChannelView[] | { items?: ChannelView[] | null } | null): ChannelView[] {
  if (Array.isArray(data)) return data;
  return data?.items ?? [];
}

/** `GET /api/channel/?p=&page_size=&id_sort=&tag_mode=`: one page (from 0) of channels. */
export function listChannels(page: number, size: number, filters: ChannelListFilters, signal?: AbortSignal): Promise<ChannelView[]> {
  return api
    .get<ChannelView[] | { items?: ChannelView[] | null } | null>(
      '/api/channel/',
      { p: page, page_size: size, id_sort: filters.idSort, tag_mode: filters.tagMode },
      signal,
    )
    .then(channelRows);
}
