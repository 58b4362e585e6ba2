import { api } from '../../../lib/api-client.ts';
import type { Redemption } from './redemption-types.ts';

/** `GET /api/redemption/?p=&page_size=`: one page (from 0) of codes, newest first. */
export function listRedemptions(page: number, size: number, signal?: AbortSignal): Promise<Redemption[]> {
  return api.get<Redemption[] | null>('/api/redemption/', { p: page, page_size: size }, signal).then((rows) => rows ?? []);
}
