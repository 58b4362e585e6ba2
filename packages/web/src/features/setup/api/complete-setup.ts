import type { SetupRequest } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** `POST /api/setup`: root's name and new password and the use mode, once. */
export function completeSetup(request: SetupRequest): Promise<unknown> {
  return api.post('/api/setup', request);
}
