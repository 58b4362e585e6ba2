import { api, requestWithExtras } from '../../../lib/api-client.ts';

/** `GET /api/channel/update_balance/{id}/`: asks the upstream for the balance (US dollars). */
export async function updateBalance(id: number): Promise<number> {
  const body = await requestWithExtras<{ balance?: number }>('GET', `/api/channel/update_balance/${id}/`);
  return Number(body.balance ?? body.data ?? 0);
}

/** `GET /api/channel/update_balance`: refreshes the balance of every enabled channel. */
export function updateAllBalances(): Promise<unknown> {
  return api.get('/api/channel/update_balance');
}
