import type { OptionStore } from '../options/option-store.ts';

/**
 * An amount of quota as the classic system writes it into log rows: dollars to six places when the
 * site shows currency, otherwise points.
 */
export function describeQuota(options: OptionStore, quota: number): string {
  if (options.getBoolean('DisplayInCurrencyEnabled')) return `＄${(quota / options.getNumber('QuotaPerUnit')).toFixed(6)} 额度`;
  return `${quota} 点额度`;
}

/** The shorter form for messages shown to a person ("$1.00" or "500000"). */
export function displayQuota(options: OptionStore, quota: number): string {
  if (options.getBoolean('DisplayInCurrencyEnabled')) return `$${(quota / options.getNumber('QuotaPerUnit')).toFixed(2)}`;
  return String(quota);
}
