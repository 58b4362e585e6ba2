import type { TokenView } from '@switchboard/contracts';
import { getListPage } from '../../../lib/list-dialect.ts';

/** Every token query (list, search, one token) lives under this key; saving invalidates it. */
export const tokensQueryKey = ['tokens'] as const;

/** `GET /api/token/?p=&size=`: one page (from 0 here; the server's dialect decides what it sends) of the current user's tokens, newest first. */
export function listTokens(page: number, size: number, signal?: AbortSignal): Promise<TokenView[]> {
  return getListPage<TokenView>('/api/token/', {}, page, size, signal, 'size');
}
