import type { TokenView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/token/search?keyword=&token=`: tokens whose name matches `keyword` and key matches `token`. */
export function searchTokens(keyword: string, token: string, signal?: AbortSignal): Promise<TokenView[]> {
  return api.get<TokenView[] | null>('/api/token/search', { keyword, token }, signal).then((rows) => rows ?? []);
}
