import type { RedemptionView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** Every code query (list, search, one code) lives under this key; saving invalidates it. */
export const redemptionsQueryKey = ['redemptions'] as const;

/** `GET /api/redemption/?p=&page_size=`: one page (from 0) of codes, newest first. */
export function listRedemptions(page: number, size: number, signal?: AbortSignal): Promise<RedemptionView[]> {
  return api.get<RedemptionView[] | null>('/api/redemption/', { p: page, page_size: size }, signal).then((rows) => rows ?? []);
}
