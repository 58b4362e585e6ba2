import type { UpdateSelfRequest } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** PUT /api/user/self (anyone editing themself: username, display name, password with the current one). */
export function updateSelf(input: UpdateSelfRequest): Promise<unknown> {
  return api.put('/api/user/self', input);
}
