import { api } from '../../../lib/api-client.ts';
import type { TokenInput } from './token-input.ts';

/**
 * `POST /api/token/`: creates `count` tokens; the server generates the keys and names the extra copies
 * `<name>-<6 random alphanumerics>`.
 */
export function createToken(input: TokenInput, count = 1): Promise<unknown> {
  return api.post('/api/token/', { ...input, count });
}
