import { api } from '../../../lib/api-client.ts';

/** PUT /api/user/passkey/:id */
export function renamePasskey(id: number, name: string): Promise<unknown> {
  return api.put(`/api/user/passkey/${id}`, { name });
}
