import { api } from '../../../lib/api-client.ts';

/** `DELETE /api/redemption/{id}/`. */
export function deleteRedemption(id: number): Promise<unknown> {
  return api.delete(`/api/redemption/${id}/`);
}
