import type { TokenView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';
import type { TokenInput } from './token-input.ts';

/**
 * `POST /api/token/`: creates `count` tokens; the server generates the keys and names the extra copies
 * `<name>-<6 random alphanumerics>`. Answers the new tokens (keys masked when the owner has a second factor).
 */
export async function createToken(input: TokenInput, count = 1): Promise<TokenView[]> {
  const created = await api.post<TokenView[] | null>('/api/token/', { ...input, count });
  return Array.isArray(created) ? created : [];
}
