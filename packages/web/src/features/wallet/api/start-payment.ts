import type { PaymentFormAnswer } from '@switchboard/contracts';
import { requestWithExtras } from '../../../lib/api-client.ts';

/** The payment page (`url`) and the hidden form fields signed by the server (`data`) posted to it. */
export type PaymentForm = Required<Pick<PaymentFormAnswer, 'url' | 'data'>>;

/**
 * `POST /api/user/pay` `{amount, top_up_code, payment_method}`: answers the signed form fields in `data`
 * and the payment page in `url` beside it.
 */
export async function startPayment(amount: number, paymentMethod: string, topUpCode = ''): Promise<PaymentForm> {
  const answer = await requestWithExtras<PaymentFormAnswer>('POST', '/api/user/pay', {
    body: { amount, top_up_code: topUpCode, payment_method: paymentMethod },
  });
  return { url: answer.url ?? '', data: answer.data ?? {} };
}
