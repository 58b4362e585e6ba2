import { api } from '../../../lib/api-client.ts';
import type { Channel } from './channel-types.ts';

/** `GET /api/channel/{id}`: one channel for the editor. */
export function getChannel(id: number, signal?: AbortSignal): Promise<Channel> {
  return api.get<Channel>(`/api/channel/${id}`, undefined, signal);
}
