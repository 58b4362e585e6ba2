import { api } from '../../../lib/api-client.ts';
import type { Redemption } from './redemption-types.ts';

/** `GET /api/redemption/{id}`. */
export function getRedemption(id: number, signal?: AbortSignal): Promise<Redemption> {
  return api.get<Redemption>(`/api/redemption/${id}`, undefined, signal);
}
