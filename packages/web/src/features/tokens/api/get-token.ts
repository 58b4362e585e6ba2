import type { TokenView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/token/{id}`: one token, for the edit drawer. */
export function getToken(id: number, signal?: AbortSignal): Promise<TokenView> {
  return api.get<TokenView>(`/api/token/${id}`, undefined, signal);
}
