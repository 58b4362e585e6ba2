import type { QuotaDataRow } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { liveRefetchInterval } from '../lib/live-refresh.ts';

export interface QuotaDataQuery {
  start_timestamp: number;
  end_timestamp: number;
  /** Administrators only; empty means everyone. */
  username: string;
}

/**
 * `GET /api/data/` (administrators, everyone or one user) or `/api/data/self/`: buckets in the range,
 * refetched while the range reaches the present (the server adds logs not aggregated yet).
 */
export function useQuotaData(query: QuotaDataQuery, admin: boolean) {
  return useQuery({
    queryKey: ['dashboard', admin, query],
    queryFn: ({ signal }) =>
      api
        .get<QuotaDataRow[] | null>(
          admin ? '/api/data/' : '/api/data/self/',
          admin ? { ...query } : { start_timestamp: query.start_timestamp, end_timestamp: query.end_timestamp },
          signal,
        )
        .then((rows) => rows ?? []),
    refetchInterval: () => liveRefetchInterval(query.end_timestamp),
  });
}
