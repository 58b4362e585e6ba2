import { api } from '../../../lib/api-client.ts';

/** `POST /api/channel/fix`: rebuilds the routing table from the channels; answers how many were fixed. */
export function fixAbilities(): Promise<number> {
  return api
    .post<number | { success?: number }>('/api/channel/fix')
    .then((data) => (typeof data === 'object' && data ? Number(data.success ?? 0) : Number(data)));
}
