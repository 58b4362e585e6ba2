import type { ModelMetaView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** What the drawer sends: the view's editable fields (the server fills ids, times and bindings). */
export type ModelInput = Pick<
  ModelMetaView,
  'model_name' | 'description' | 'icon' | 'tags' | 'vendor_id' | 'endpoints' | 'status' | 'sync_official' | 'name_rule'
>;

/** `POST /api/models/` (no id) or `PUT /api/models/` (with one). */
export function saveModel(id: number | undefined, input: ModelInput): Promise<ModelMetaView> {
  return id === undefined ? api.post<ModelMetaView>('/api/models/', input) : api.put<ModelMetaView>('/api/models/', { ...input, id });
}

/** `PUT /api/models/?status_only=true`: enables (1) or disables (0) a model. */
export function setModelStatus(id: number, status: 0 | 1): Promise<ModelMetaView> {
  return api.put<ModelMetaView>('/api/models/', { id, status }, { status_only: true });
}

/** `GET /api/models/:id`. */
export function getModel(id: number, signal?: AbortSignal): Promise<ModelMetaView> {
  return api.get<ModelMetaView>(`/api/models/${id}`, undefined, signal);
}

/** `DELETE /api/models/:id`. */
export function deleteModel(id: number): Promise<unknown> {
  return api.delete(`/api/models/${id}`);
}
