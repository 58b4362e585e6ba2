import { api } from '../../../lib/api-client.ts';

/** DELETE /api/user/passkey/:id (needs a recent re-verification). */
export function deletePasskey(id: number): Promise<unknown> {
  return api.delete(`/api/user/passkey/${id}`);
}
