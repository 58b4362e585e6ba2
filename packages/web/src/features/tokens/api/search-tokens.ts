import { api } from '../../../lib/api-client.ts';
import type { Token } from './token-types.ts';

/** `GET /api/token/search?keyword=&token=`: tokens whose name matches `keyword` and key matches `token`. */
export function searchTokens(keyword: string, token: string, signal?: AbortSignal): Promise<Token[]> {
  return api.get<Token[] | null>('/api/token/search', { keyword, token }, signal).then((rows) => rows ?? []);
}
