import { api } from '../../../lib/api-client.ts';

/** `DELETE /api/token/{id}/`. */
export function deleteToken(id: number): Promise<unknown> {
  return api.delete(`/api/token/${id}/`);
}
