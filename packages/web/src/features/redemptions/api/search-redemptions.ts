import type { RedemptionView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/redemption/search?keyword=`: codes whose id or name matches. */
export function searchRedemptions(keyword: string, signal?: AbortSignal): Promise<RedemptionView[]> {
  return api.get<RedemptionView[] | null>('/api/redemption/search', { keyword }, signal).then((rows) => rows ?? []);
}
