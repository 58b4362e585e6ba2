import type { UserView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** GET /api/user/{id}, or GET /api/user/self when editing oneself. */
export function getUser(id: number | 'self', signal?: AbortSignal): Promise<UserView> {
  return api.get<UserView>(id === 'self' ? '/api/user/self' : `/api/user/${id}`, undefined, signal);
}
