import { api } from '../../../lib/api-client.ts';

/** `DELETE /api/channel/{id}/`. */
export function deleteChannel(id: number): Promise<unknown> {
  return api.delete(`/api/channel/${id}/`);
}
