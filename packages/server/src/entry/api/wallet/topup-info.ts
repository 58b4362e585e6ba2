import type { PayMethod, TopUpInfo } from '@switchboard/contracts';
import type { OptionStore } from '../../../domain/options/option-store.ts';

function isPayMethod(entry: unknown): entry is PayMethod {
  if (typeof entry !== 'object' || entry === null) return false;
  const { name, type } = entry as Record<string, unknown>;
  return typeof name === 'string' && typeof type === 'string' && type !== '';
}

/** Only the fields of new-api's shape, as text, so an odd stored entry cannot leak other data. */
function payMethodsOf(options: OptionStore): PayMethod[] {
  const stored = options.getJson<unknown>('PayMethods');
  const entries = Array.isArray(stored) ? stored.filter(isPayMethod) : [];
  return entries.map(({ name, type, color, min_topup }) => ({
    name,
    type,
    ...(typeof color === 'string' ? { color } : {}),
    ...(min_topup === undefined || min_topup === null ? {} : { min_topup: String(min_topup) }),
  }));
}

/** Amount → price factor for that exact amount; anything but a factor in (0, 1] counts as no discount. */
export function amountDiscounts(options: OptionStore): Record<string, number> {
  const stored = options.getJson<unknown>('payment_setting.amount_discount');
  const entries = stored && typeof stored === 'object' && !Array.isArray(stored) ? Object.entries(stored) : [];
  return Object.fromEntries(entries.filter((entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] > 0 && entry[1] <= 1));
}

function amountOptions(options: OptionStore): number[] {
  const stored = options.getJson<unknown>('payment_setting.amount_options');
  return Array.isArray(stored) ? stored.filter((amount): amount is number => Number.isSafeInteger(amount) && amount > 0) : [];
}

/** `GET /api/user/topup/info`: what the wallet may offer, from the options, in new-api's shape. */
export function buildTopUpInfo(options: OptionStore): TopUpInfo {
  return {
    enable_online_topup: options.get('PayAddress') !== '' && options.get('EpayId') !== '' && options.get('EpayKey') !== '',
    enable_stripe_topup: false,
    enable_creem_topup: false,
    pay_methods: payMethodsOf(options),
    min_topup: options.getNumber('MinTopUp'),
    amount_options: amountOptions(options),
    discount: amountDiscounts(options),
    topup_link: options.get('TopUpLink'),
  };
}
