import { api } from '../../../lib/api-client.ts';

/** `GET /api/channel/fetch_models/{id}`: the upstream's model list, with the stored key. */
export function fetchChannelModels(id: number): Promise<string[]> {
  return api.get<string[] | null>(`/api/channel/fetch_models/${id}`).then((models) => models ?? []);
}

/** `POST /api/channel/fetch_models` `{base_url, type, key}`: the same for a channel not saved yet. */
export function fetchModelsWithKey(input: { base_url: string; type: number; key: string }): Promise<string[]> {
  return api.post<string[] | null>('/api/channel/fetch_models', input).then((models) => models ?? []);
}
