import type { RedemptionView } from '@switchboard/contracts';
import { getListPage } from '../../../lib/list-dialect.ts';

/** Every code query (list, search, one code) lives under this key; saving invalidates it. */
export const redemptionsQueryKey = ['redemptions'] as const;

/** `GET /api/redemption/?p=&page_size=`: one page (from 0 here) of codes, newest first, in either list dialect. */
export function listRedemptions(page: number, size: number, signal?: AbortSignal): Promise<RedemptionView[]> {
  return getListPage<RedemptionView>('/api/redemption/', {}, page, size, signal);
}
