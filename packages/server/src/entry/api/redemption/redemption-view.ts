import type { RedemptionView } from '@switchboard/contracts';
import type { RedemptionRow } from './redemption.repository.ts';

export function toRedemptionView(row: RedemptionRow): RedemptionView {
  return {
    id: row.id,
    user_id: row.user_id,
    key: row.key,
    status: row.status,
    name: row.name,
    quota: Number(row.quota),
    created_time: Number(row.created_time),
    redeemed_time: Number(row.redeemed_time),
    used_user_id: Number(row.used_user_id),
    expired_time: Number(row.expired_time),
  };
}
