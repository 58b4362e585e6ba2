import type { OptionStore } from '../../options/option-store.ts';

/** How log lines describe an amount of quota: dollars when the site shows currency, else points. */
export function describeQuota(options: OptionStore, quota: number): string {
  if (options.getBoolean('DisplayInCurrencyEnabled')) {
    return `＄${(quota / options.getNumber('QuotaPerUnit')).toFixed(6)} 额度`;
  }
  return `${quota} 点额度`;
}
