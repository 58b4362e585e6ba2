import { api } from '../../../lib/api-client.ts';

/** `POST /api/channel/tag/enabled|disabled` `{tag}`: enables or disables every channel of a tag. */
export function setTagStatus(tag: string, enabled: boolean): Promise<unknown> {
  return api.post(`/api/channel/tag/${enabled ? 'enabled' : 'disabled'}`, { tag });
}
