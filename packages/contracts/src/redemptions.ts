/** A redemption code as the console API answers it (`GET /api/redemption/`, `/search`, `/{id}`, and update). */
export interface RedemptionView {
  id: number;
  /** The administrator who created it. */
  user_id: number;
  key: string;
  /** See RedemptionStatus: 1 unused, 2 disabled, 3 used. */
  status: number;
  name: string;
  quota: number;
  created_time: number;
  /** Unix seconds; 0 until redeemed. */
  redeemed_time: number;
  /** 0 until redeemed. */
  used_user_id: number;
  expired_time: number;
}
