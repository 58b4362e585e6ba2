import { api } from '../../../lib/api-client.ts';

/** PUT /api/option/: one key per call. */
export function updateOption(key: string, value: string): Promise<unknown> {
  return api.put('/api/option/', { key, value });
}
