import type { RedemptionView } from '@switchboard/contracts';
import { getWholeList } from '../../../lib/list-dialect.ts';

/** `GET /api/redemption/search?keyword=`: codes whose id or name matches. */
export function searchRedemptions(keyword: string, signal?: AbortSignal): Promise<RedemptionView[]> {
  return getWholeList<RedemptionView>('/api/redemption/search', { keyword }, signal);
}
