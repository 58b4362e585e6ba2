import type { RedeemedQuota } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** `POST /api/user/topup` `{key}`: redeems a code; answers the quota added. */
export function redeemCode(key: string): Promise<number> {
  return api.post<RedeemedQuota>('/api/user/topup', { key }).then(Number);
}
