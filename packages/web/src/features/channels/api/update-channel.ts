import { api } from '../../../lib/api-client.ts';
import type { ChannelInput } from './channel-input.ts';

/** `PUT /api/channel/`: full update of channel `id`; an empty key keeps the stored one. */
export function updateChannel(id: number, input: ChannelInput): Promise<unknown> {
  return api.put('/api/channel/', { ...input, id });
}

/** `PUT /api/channel/` with only `id` plus status, priority or weight (row actions and inline edits). */
export function updateChannelField(id: number, field: { status: number } | { priority: number } | { weight: number }): Promise<unknown> {
  return api.put('/api/channel/', { id, ...field });
}
