import type { LogView, Page } from '@switchboard/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getPage } from '../../../lib/get-page.ts';
import { filterQuery, logsQueryKey, type LogFilters } from './log-filters.ts';

/** `GET /api/log/` (administrators: everyone's) or `/api/log/self/`: one page (from 1) of log rows. */
export function listLogs(filters: LogFilters, page: number, pageSize: number, admin: boolean, signal?: AbortSignal): Promise<Page<LogView>> {
  return getPage<LogView>(admin ? '/api/log/' : '/api/log/self/', filterQuery(filters, admin), page, pageSize, signal);
}

export function useLogs(filters: LogFilters, page: number, pageSize: number, admin: boolean) {
  return useQuery({
    queryKey: [...logsQueryKey, 'list', admin, filters, page, pageSize],
    queryFn: ({ signal }) => listLogs(filters, page, pageSize, admin, signal),
    placeholderData: keepPreviousData,
  });
}
