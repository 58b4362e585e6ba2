import { api } from '../../../lib/api-client.ts';
import type { Token } from './token-types.ts';

/** `GET /api/token/{id}`: one token, for the edit drawer. */
export function getToken(id: number, signal?: AbortSignal): Promise<Token> {
  return api.get<Token>(`/api/token/${id}`, undefined, signal);
}
