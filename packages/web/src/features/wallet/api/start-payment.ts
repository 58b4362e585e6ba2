import { requestWithExtras } from '../../../lib/api-client.ts';

export interface PaymentForm {
  /** The payment page the form is posted to. */
  url: string;
  /** Hidden form fields signed by the server. */
  data: Record<string, string>;
}

/**
 * `POST /api/user/pay` `{amount, top_up_code, payment_method}`: answers the signed form fields in `data`
 * and the payment page in `url` beside it.
 */
export async function startPayment(amount: number, paymentMethod: string, topUpCode = ''): Promise<PaymentForm> {
  const answer = await requestWithExtras<{ url?: string }>('POST', '/api/user/pay', {
    body: { amount, top_up_code: topUpCode, payment_method: paymentMethod },
  });
  return { url: answer.url ?? '', data: (answer.data ?? {}) as Record<string, string> };
}
