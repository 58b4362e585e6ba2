import { api } from '../../../lib/api-client.ts';

/** `POST /api/channel/batch` `{ids}`: deletes the selected channels; answers how many. */
export function deleteChannels(ids: number[]): Promise<number> {
  return api.post<number>('/api/channel/batch', { ids }).then(Number);
}
