import { api } from '../../../lib/api-client.ts';

/** DELETE /api/user/self */
export function deleteOwnAccount(): Promise<unknown> {
  return api.delete('/api/user/self');
}
