import { api } from '../../../lib/api-client.ts';
import type { ChannelInput } from './channel-input.ts';

/**
 * `POST /api/channel/` `{mode, channel}`: creates a channel. In batch mode the key
 * holds one key per line and the server creates one channel per key; single mode keeps multi-line keys
 * (a Vertex JSON credential) whole.
 */
export function createChannel(input: ChannelInput, batch = false): Promise<unknown> {
  return api.post('/api/channel/', { mode: batch ? 'batch' : 'single', channel: input });
}
