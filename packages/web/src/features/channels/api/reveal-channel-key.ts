import { api } from '../../../lib/api-client.ts';

/**
 * `POST /api/channel/{id}/key`: the stored upstream key, for the super administrator only. The server
 * logs every reveal; the channel itself (`GET /api/channel/{id}`) never carries the key.
 */
export function revealChannelKey(id: number): Promise<string> {
  return api.post<{ key: string }>(`/api/channel/${id}/key`).then((answer) => answer.key);
}
