import { TokenStatus } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

interface TokenSummary {
  key: string;
  status: number;
}

/** The user's first enabled token (GET /api/token/?p=0), whose key the chat front ends are opened with. */
export function useFirstTokenKey() {
  return useQuery({
    queryKey: ['chat', 'first-token'],
    queryFn: async () => {
      const tokens = await api.get<TokenSummary[]>('/api/token/', { p: 0 });
      return tokens.find((token) => token.status === TokenStatus.enabled)?.key ?? '';
    },
  });
}
