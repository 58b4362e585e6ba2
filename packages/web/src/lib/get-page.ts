import type { Page } from '@switchboard/contracts';
import { api, type Query } from './api-client.ts';

/**
 * `GET path` for one page (from 1) of a list the server always pages with totals (the logs),
 * with the list's filters in `query`. A server that answers no data means an empty page.
 */
export function getPage<Row>(path: string, query: Query, page: number, pageSize: number, signal?: AbortSignal): Promise<Page<Row>> {
  return api
    .get<Page<Row> | null>(path, { ...query, p: page, page_size: pageSize }, signal)
    .then((data) => data ?? { items: [], total: 0, page, page_size: pageSize });
}
