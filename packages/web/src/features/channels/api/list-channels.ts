import type { ChannelView } from '@switchboard/contracts';
import { getListPage } from '../../../lib/list-dialect.ts';

/** Every channel query (list, search, one channel, catalogues) lives under this key; saving invalidates it. */
export const channelsQueryKey = ['channels'] as const;

/** How the list is ordered and shown; both the list and the search send them. */
export interface ChannelListFilters {
  idSort: boolean;
  tagMode: boolean;
}

/** `GET /api/channel/?p=&page_size=&id_sort=&tag_mode=`: one page (from 0 here) of channels, in either list dialect. */
export function listChannels(page: number, size: number, filters: ChannelListFilters, signal?: AbortSignal): Promise<ChannelView[]> {
  return getListPage<ChannelView>('/api/channel/', { id_sort: filters.idSort, tag_mode: filters.tagMode }, page, size, signal);
}
