import type { TokenView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** Every token query (list, search, one token) lives under this key; saving invalidates it. */
export const tokensQueryKey = ['tokens'] as const;

/** `GET /api/token/?p=&size=`: one page (from 0) of the current user's tokens, newest first. */
export function listTokens(page: number, size: number, signal?: AbortSignal): Promise<TokenView[]> {
  return api.get<TokenView[] | null>('/api/token/', { p: page, size }, signal).then((rows) => rows ?? []);
}
