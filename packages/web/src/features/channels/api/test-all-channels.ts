import { api } from '../../../lib/api-client.ts';

/** `GET /api/channel/test`: starts testing every enabled channel in the background. */
export function testAllChannels(): Promise<unknown> {
  return api.get('/api/channel/test');
}
