import type { ModelSyncResult } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** `POST /api/models/sync_upstream`: creates the channels' models the catalogue lacks. */
export function syncModels(): Promise<ModelSyncResult> {
  return api.post<ModelSyncResult>('/api/models/sync_upstream', {});
}
