import { api } from '../../../lib/api-client.ts';

/** POST /api/token/:id/key: the full key, when lists mask it (a second factor is set; may need /api/verify first). */
export async function revealTokenKey(id: number): Promise<string> {
  return (await api.post<{ key: string }>(`/api/token/${id}/key`, {})).key;
}
