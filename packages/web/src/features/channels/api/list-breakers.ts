import type { ChannelBreakerView } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { channelsQueryKey } from './list-channels.ts';

/** A breaker's cool-down is seconds long: the list follows it without a manual refresh. */
const refreshMs = 10_000;

/** `GET /api/channel/breaker`: the channels whose circuit breaker is not wholly closed, by channel id. */
export function useChannelBreakers() {
  return useQuery({
    queryKey: [...channelsQueryKey, 'breakers'],
    queryFn: ({ signal }) =>
      api
        .get<ChannelBreakerView[] | null>('/api/channel/breaker', undefined, signal)
        .then((views) => new Map((views ?? []).map((view) => [view.channel_id, view]))),
    refetchInterval: refreshMs,
  });
}
