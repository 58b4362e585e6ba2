import { api } from '../../../lib/api-client.ts';

/**
 * `POST /api/channel/copy/{id}`: the server duplicates the channel, key included (the console never
 * holds the key), with `suffix` after its name and its balance and usage reset.
 */
export function copyChannel(id: number, suffix: string): Promise<{ id: number }> {
  return api.post<{ id: number }>(`/api/channel/copy/${id}`, undefined, { suffix, reset_balance: true });
}
