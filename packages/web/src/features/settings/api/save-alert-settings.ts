import type { AlertSettingsRequest } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** `PUT /api/budget/self/alerts`: the low-balance threshold (null: the site's) and the webhook. */
export function saveAlertSettings(input: AlertSettingsRequest): Promise<unknown> {
  return api.put('/api/budget/self/alerts', input);
}
