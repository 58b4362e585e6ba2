import type { RedemptionView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/redemption/{id}`. */
export function getRedemption(id: number, signal?: AbortSignal): Promise<RedemptionView> {
  return api.get<RedemptionView>(`/api/redemption/${id}`, undefined, signal);
}
