import { api } from '../../../lib/api-client.ts';

export interface TagEdit {
  tag: string;
  new_tag?: string;
  model_mapping?: string;
  /** Comma-separated. */
  groups?: string;
  /** Comma-separated. */
  models?: string;
  priority?: number;
  weight?: number;
}

/** `PUT /api/channel/tag`: overwrites the given fields on every channel of a tag (empty new tag dissolves it). */
export function updateTag(edit: TagEdit): Promise<unknown> {
  return api.put('/api/channel/tag', edit);
}
