import type { LogStat } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { filterQuery, logsQueryKey, type LogFilters } from './log-filters.ts';

/** `GET /api/log/stat` or `/api/log/self/stat`: consumed quota, RPM and TPM for the same filters. */
export function getLogStat(filters: LogFilters, admin: boolean, signal?: AbortSignal): Promise<LogStat> {
  return api
    .get<LogStat | null>(admin ? '/api/log/stat' : '/api/log/self/stat', filterQuery(filters, admin), signal)
    .then((stat) => stat ?? { quota: 0, rpm: 0, tpm: 0 });
}

export function useLogStat(filters: LogFilters, admin: boolean) {
  return useQuery({ queryKey: [...logsQueryKey, 'stat', admin, filters], queryFn: ({ signal }) => getLogStat(filters, admin, signal) });
}
