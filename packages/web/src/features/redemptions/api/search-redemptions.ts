import { api } from '../../../lib/api-client.ts';
import type { Redemption } from './redemption-types.ts';

/** `GET /api/redemption/search?keyword=`: codes whose id or name matches. */
export function searchRedemptions(keyword: string, signal?: AbortSignal): Promise<Redemption[]> {
  return api.get<Redemption[] | null>('/api/redemption/search', { keyword }, signal).then((rows) => rows ?? []);
}
