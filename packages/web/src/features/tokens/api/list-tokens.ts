import { api } from '../../../lib/api-client.ts';
import type { Token } from './token-types.ts';

/** `GET /api/token/?p=&size=`: one page (from 0) of the current user's tokens, newest first. */
export function listTokens(page: number, size: number, signal?: AbortSignal): Promise<Token[]> {
  return api.get<Token[] | null>('/api/token/', { p: page, size }, signal).then((rows) => rows ?? []);
}
