import { api } from '../../../lib/api-client.ts';

export interface FirstChannel {
  type: number;
  name: string;
  base_url: string;
  key: string;
  models: string;
}

/** `POST /api/channel/` in single mode, in the default group, every other field at its default. */
export function createFirstChannel(channel: FirstChannel): Promise<unknown> {
  return api.post('/api/channel/', { mode: 'single', channel: { ...channel, group: 'default' } });
}
