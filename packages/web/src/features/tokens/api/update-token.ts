import { api } from '../../../lib/api-client.ts';
import type { TokenInput } from './token-input.ts';

/** `PUT /api/token/`: replaces the editable fields of token `id`. */
export function updateToken(id: number, input: TokenInput): Promise<unknown> {
  return api.put('/api/token/', { ...input, id });
}
