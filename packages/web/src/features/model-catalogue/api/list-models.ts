import type { ModelMetaPage } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** Every catalogue query (models, vendors) lives under this key; a change invalidates it. */
export const catalogueQueryKey = ['model-catalogue'] as const;

export interface ModelFilter {
  keyword: string;
  /** A vendor id, or '' for all. */
  vendor: string;
}

/** `GET /api/models/` or, with a filter, `/api/models/search`: one page (from 1), with counts per vendor. */
export function listModels(filter: ModelFilter, page: number, size: number, signal?: AbortSignal): Promise<ModelMetaPage> {
  const paging = { p: page, page_size: size };
  if (filter.keyword === '' && filter.vendor === '') return api.get<ModelMetaPage>('/api/models/', paging, signal);
  return api.get<ModelMetaPage>('/api/models/search', { ...paging, keyword: filter.keyword, vendor: filter.vendor }, signal);
}
