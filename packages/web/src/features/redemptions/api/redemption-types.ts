/** A redemption code (`redemptions` row). */
export interface Redemption {
  id: number;
  name: string;
  key: string;
  /** 1 unused, 2 disabled, 3 used. */
  status: number;
  quota: number;
  created_time: number;
  redeemed_time?: number;
  used_user_id: number;
}

export interface RedemptionInput {
  name: string;
  quota: number;
}

export const redemptionsQueryKey = ['redemptions'] as const;
export const maximumBatch = 100;
export const defaultRedemptionQuota = 100_000;
