import { api } from '../../../lib/api-client.ts';

/** `DELETE /api/channel/disabled`: removes every disabled channel; answers how many. */
export function deleteDisabledChannels(): Promise<number> {
  return api.delete<number>('/api/channel/disabled').then(Number);
}
