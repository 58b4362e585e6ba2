import { TokenStatus, type TokenView } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** The most the token list answers per page (the server caps `size` at 100). */
const pageSize = 100;
/** A bound on the walk, so a server that ignored `p` could not keep us paging forever. */
const maxPages = 50;

/**
 * The key of the user's first enabled token (the list is newest first), '' when none is enabled.
 * The first page holds 100 tokens, as the classic console reads; later pages are read only while no
 * enabled token has turned up, so a user whose enabled key is further down is not told they have none.
 */
export async function findFirstEnabledKey(signal?: AbortSignal): Promise<string> {
  for (let page = 0; page < maxPages; page++) {
    const tokens = await api.get<TokenView[]>('/api/token/', { p: page, size: pageSize }, signal);
    const enabled = tokens.find((token) => token.status === TokenStatus.enabled);
    if (enabled) return enabled.key;
    if (tokens.length < pageSize) return '';
  }
  return '';
}

/** Read only when a chat link needs it; never served from an old cache (a token may just have been enabled). */
export function useFirstTokenKey(enabled: boolean) {
  return useQuery({ queryKey: ['chat', 'first-token-key'], queryFn: ({ signal }) => findFirstEnabledKey(signal), enabled, gcTime: 0, staleTime: 0 });
}
