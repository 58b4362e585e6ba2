import type { ChannelStatRow } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { liveRefetchInterval } from '../lib/live-refresh.ts';
import type { QuotaDataQuery } from './quota-data.ts';

/** `GET /api/data/channels` (administrators): calls, errors, latency percentiles and cost per channel. */
export function useChannelStats(query: QuotaDataQuery, enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard', 'channels', query.start_timestamp, query.end_timestamp],
    queryFn: ({ signal }) =>
      api
        .get<ChannelStatRow[] | null>('/api/data/channels', { start_timestamp: query.start_timestamp, end_timestamp: query.end_timestamp }, signal)
        .then((rows) => rows ?? []),
    enabled,
    refetchInterval: () => liveRefetchInterval(query.end_timestamp),
  });
}
