import type { TokenView } from '@switchboard/contracts';
import { getWholeList } from '../../../lib/list-dialect.ts';

/** `GET /api/token/search?keyword=&token=`: tokens whose name matches `keyword` and key matches `token`. */
export function searchTokens(keyword: string, token: string, signal?: AbortSignal): Promise<TokenView[]> {
  return getWholeList<TokenView>('/api/token/search', { keyword, token }, signal);
}
