import type { TopUpInfo } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/user/topup/info`: the payment methods, preset amounts and their discounts the wallet offers. */
export function useTopUpInfo() {
  return useQuery({ queryKey: ['topup-info'], queryFn: ({ signal }) => api.get<TopUpInfo>('/api/user/topup/info', undefined, signal), staleTime: 60_000 });
}
