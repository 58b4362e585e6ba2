import { api } from '../../../lib/api-client.ts';

/** `GET /api/channel/fetch_models/{id}`: the upstream's model list, with the stored key. */
export function fetchChannelModels(id: number): Promise<string[]> {
  return api.get<string[] | null>(`/api/channel/fetch_models/${id}`).then((models) => models ?? []);
}

/**
 * `POST /api/channel/fetch_models` `{base_url, type, key, other}`: the same for a channel not saved yet;
 * `other` carries what some vendors need to list models (Cloudflare's account id).
 */
export function fetchModelsWithKey(input: { base_url: string; type: number; key: string; other: string }): Promise<string[]> {
  return api.post<string[] | null>('/api/channel/fetch_models', input).then((models) => models ?? []);
}
