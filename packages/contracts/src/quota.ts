/** 500,000 quota units are one US dollar unless the QuotaPerUnit option says otherwise. */
export const DEFAULT_QUOTA_PER_UNIT = 500_000;

/**
 * How the console shows an amount of quota: dollars with two decimals when currency display is on,
 * otherwise the raw number abbreviated (k above 10,000, M above a million, B above a billion).
 */
export function formatQuota(quota: number, options: { quotaPerUnit: number; displayInCurrency: boolean }): string {
  if (options.displayInCurrency) {
    return `$${(quota / options.quotaPerUnit).toFixed(2)}`;
  }
  const abs = Math.abs(quota);
  if (abs >= 1_000_000_000) return `${(quota / 1_000_000_000).toFixed(1)}B`;
  if (abs >= 1_000_000) return `${(quota / 1_000_000).toFixed(1)}M`;
  if (abs >= 10_000) return `${(quota / 1_000).toFixed(1)}k`;
  return String(quota);
}

/** new-api's `general_setting.quota_display_type`: how the console shows amounts of quota. */
export const quotaDisplayTypes = ['USD', 'CNY', 'TOKENS', 'CUSTOM'] as const;
export type QuotaDisplayType = (typeof quotaDisplayTypes)[number];

/**
 * The display type in force: new-api's older switch DisplayInCurrencyEnabled turned off means raw
 * quota whatever the type says; an unknown stored type (an imported database) reads as USD.
 */
export function effectiveQuotaDisplayType(storedType: string, displayInCurrency: boolean): QuotaDisplayType {
  if (!displayInCurrency) return 'TOKENS';
  return (quotaDisplayTypes as readonly string[]).includes(storedType) ? (storedType as QuotaDisplayType) : 'USD';
}
