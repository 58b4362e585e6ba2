import { api } from '../../../lib/api-client.ts';

/** DELETE /api/log/?target_timestamp={seconds}: removes older logs; data is how many. */
export function purgeLogs(beforeSeconds: number): Promise<number> {
  return api.delete<number>('/api/log/', { target_timestamp: beforeSeconds });
}
