import type { ChannelView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/channel/{id}`: one channel for the editor. */
export function getChannel(id: number, signal?: AbortSignal): Promise<ChannelView> {
  return api.get<ChannelView>(`/api/channel/${id}`, undefined, signal);
}
