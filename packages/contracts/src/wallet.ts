import type { Envelope } from './envelope.ts';

/** `POST /api/user/topup` `{key}`: `data` is the quota the redeemed code added. */
export type RedeemedQuota = number;

/** `POST /api/user/amount`: `data` is what the top-up costs in yuan, as text with two decimals ("7.30"). */
export type TopUpPrice = string;

/**
 * `POST /api/user/pay`: `data` holds the signed Epay form fields and `url`, beside it, the payment page
 * the console posts them to as a hidden form.
 */
export interface PaymentFormAnswer extends Envelope<Record<string, string>> {
  url: string;
}

/** One online top-up order of the caller (`GET /api/user/topup/self`, newest first). */
export interface TopUpRecord {
  id: number;
  user_id: number;
  /** Dollars (or quota units when the site does not show currency). */
  amount: number;
  /** Yuan paid. */
  money: number;
  trade_no: string;
  payment_method: string;
  create_time: number;
  complete_time: number;
  /** pending until the payment notice arrives, then success. */
  status: string;
}
