import type { TopUpPrice } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** `POST /api/user/amount` `{amount, top_up_code}`: what the top-up really costs (in yuan). */
export function quoteAmount(amount: number, topUpCode = ''): Promise<number> {
  return api.post<TopUpPrice>('/api/user/amount', { amount, top_up_code: topUpCode }).then(Number);
}
