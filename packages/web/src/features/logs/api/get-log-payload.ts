import type { LogPayloadView } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { logsQueryKey } from './log-filters.ts';

/** `GET /api/log/:id/payload` (administrators): the stored request and response bodies, or null. */
export function getLogPayload(logId: number, signal?: AbortSignal): Promise<LogPayloadView | null> {
  return api.get<LogPayloadView | null>(`/api/log/${logId}/payload`, undefined, signal);
}

export function useLogPayload(logId: number) {
  return useQuery({ queryKey: [...logsQueryKey, 'payload', logId], queryFn: ({ signal }) => getLogPayload(logId, signal) });
}
