import type { PaymentForm } from '../api/start-payment.ts';

/** Posts the signed fields to the payment page: a new tab, except in Safari where pop-ups get blocked. */
export function postPaymentForm(payment: PaymentForm): void {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = payment.url;
  const safari = /^((?!chrome|android).)*safari/i.test(navigator.userAgent);
  if (!safari) form.target = '_blank';
  for (const [name, value] of Object.entries(payment.data)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = String(value);
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
  form.remove();
}
