import { useQuery } from '@tanstack/react-query';
import type { UptimeGroupStatus } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** GET /api/uptime/status (public): the configured Uptime Kuma pages' monitors, fetched only while the panel is on. */
export function useUptimeStatus(enabled: boolean) {
  return useQuery({
    queryKey: ['uptime-status'],
    queryFn: () => api.get<UptimeGroupStatus[]>('/api/uptime/status'),
    enabled,
    staleTime: 60_000,
  });
}
