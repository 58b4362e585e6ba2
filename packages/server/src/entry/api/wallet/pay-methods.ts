import { isPlainEpayValue } from './epay-signature.ts';

/** The classic console's names for the two usual Epay types. */
const consoleAliases: Readonly<Record<string, string>> = { zfb: 'alipay', wx: 'wxpay' };

/**
 * The Epay `type`s the administrator offers, from the PayMethods option in new-api's shape
 * (`[{name, color, type, min_topup?}]`); entries without a usable `type` offer nothing.
 */
function offeredTypes(payMethods: unknown): Set<string> {
  const entries: unknown[] = Array.isArray(payMethods) ? payMethods : [];
  const types = entries.map((entry) => (typeof entry === 'object' && entry !== null ? (entry as { type?: unknown }).type : undefined));
  return new Set(types.filter((type): type is string => typeof type === 'string' && isPlainEpayValue(type)));
}

/** The Epay `type` for the method the console sent, or undefined when the site does not offer it. */
export function resolvePayType(method: string, payMethods: unknown): string | undefined {
  const type = Object.hasOwn(consoleAliases, method) ? consoleAliases[method] : method;
  return type !== undefined && offeredTypes(payMethods).has(type) ? type : undefined;
}
