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

/** One payment method as the administrator lists it in PayMethods (new-api's shape). */
export interface PayMethod {
  name: string;
  type: string;
  color?: string;
  /** Per-method minimum, as text, when the administrator set one. */
  min_topup?: string;
}

/**
 * `GET /api/user/topup/info`, new-api's shape: what the wallet may offer. Switchboard pays through Epay
 * only, so the Stripe and Creem switches are always false (kept so new-api's consoles read them).
 */
export interface TopUpInfo {
  enable_online_topup: boolean;
  enable_stripe_topup: false;
  enable_creem_topup: false;
  pay_methods: PayMethod[];
  /** MinTopUp as stored, in dollars (as new-api answers it). */
  min_topup: number;
  /** Preset amounts the wallet shows as buttons. */
  amount_options: number[];
  /** Amount → price factor for that exact amount (0.9 = 10 % off). */
  discount: Record<string, number>;
  topup_link: string;
}
