import type { LogView, Page } from '@switchboard/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { filterQuery, logsQueryKey, type LogFilters } from './log-filters.ts';

/** `GET /api/log/` (administrators: everyone's) or `/api/log/self/`: one page (from 1) of log rows. */
export function listLogs(filters: LogFilters, page: number, pageSize: number, admin: boolean, signal?: AbortSignal): Promise<Page<LogView>> {
  return api
    .get<Page<LogView> | null>(admin ? '/api/log/' : '/api/log/self/', { ...filterQuery(filters, admin), p: page, page_size: pageSize }, signal)
    .then((data) => data ?? { items: [], total: 0, page, page_size: pageSize });
}

export function useLogs(filters: LogFilters, page: number, pageSize: number, admin: boolean) {
  return useQuery({
    queryKey: [...logsQueryKey, 'list', admin, filters, page, pageSize],
    queryFn: ({ signal }) => listLogs(filters, page, pageSize, admin, signal),
    placeholderData: keepPreviousData,
  });
}
