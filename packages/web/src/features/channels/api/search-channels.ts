import type { ChannelView } from '@switchboard/contracts';
import { getWholeList } from '../../../lib/list-dialect.ts';
import type { ChannelListFilters } from './list-channels.ts';

export interface ChannelSearch {
  keyword: string;
  group: string;
  model: string;
}

/** `GET /api/channel/search?keyword=&group=&model=&id_sort=&tag_mode=`: keyword matches id, name or key. */
export function searchChannels(search: ChannelSearch, filters: ChannelListFilters, signal?: AbortSignal): Promise<ChannelView[]> {
  return getWholeList<ChannelView>('/api/channel/search', { ...search, id_sort: filters.idSort, tag_mode: filters.tagMode }, signal);
}
