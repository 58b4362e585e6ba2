import { api } from '../../../lib/api-client.ts';

/** `POST /api/channel/batch/tag` `{ids, tag}`: sets one tag on the selected channels; answers how many. */
export function tagChannels(ids: number[], tag: string): Promise<number> {
  return api.post<number>('/api/channel/batch/tag', { ids, tag }).then(Number);
}
