import { DEFAULT_QUOTA_PER_UNIT, type QuotaDisplayType, type SystemStatus } from '@switchboard/contracts';

/**
 * How the console shows an amount of quota, from new-api's display options: a currency (US dollars,
 * yuan at USDExchangeRate, or a custom symbol at its rate) or the raw quota units.
 */
export interface QuotaDisplay {
  type: QuotaDisplayType;
  quotaPerUnit: number;
  /** '' for raw quota. */
  symbol: string;
  /** Currency units per US dollar (1 for USD and raw quota). */
  rate: number;
}

/**
 * At most six decimals, as new-api's log table shows: at the default 500,000 quota per dollar a quota
 * unit is $0.000002, so six decimals show every dollar amount exactly and totals add up to their rows.
 */
const maxDecimals = 6;
const minDecimals = 2;

const positiveOr = (value: number | undefined, fallback: number) => (value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback);

/** The display the status asks for; an old cached status without a display type follows its DisplayInCurrencyEnabled. */
export function quotaDisplayOf(status: SystemStatus | undefined): QuotaDisplay {
  const quotaPerUnit = positiveOr(status?.quota_per_unit, DEFAULT_QUOTA_PER_UNIT);
  const type: QuotaDisplayType = status?.quota_display_type ?? (status?.display_in_currency === false ? 'TOKENS' : 'USD');
  switch (type) {
    case 'TOKENS':
      return { type, quotaPerUnit, symbol: '', rate: 1 };
    case 'CNY':
      return { type, quotaPerUnit, symbol: '¥', rate: positiveOr(status?.usd_exchange_rate, 7.3) };
    case 'CUSTOM':
      return { type, quotaPerUnit, symbol: status?.custom_currency_symbol || '¤', rate: positiveOr(status?.custom_currency_exchange_rate, 1) };
    default:
      return { type: 'USD', quotaPerUnit, symbol: '$', rate: 1 };
  }
}

/** An amount in the display currency (for a chart axis, which plots currency values), '' symbol for raw quota. */
export function currencyValueOf(quota: number, display: QuotaDisplay): number {
  return display.type === 'TOKENS' ? quota : (quota / display.quotaPerUnit) * display.rate;
}

const grouped = (decimalsFrom: number, decimalsTo: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: decimalsFrom, maximumFractionDigits: decimalsTo, useGrouping: true });
const currencyNumber = grouped(minDecimals, maxDecimals);
const exactNumber = grouped(0, 12);
const wholeNumber = grouped(0, 0);

function signed(value: number, body: (absolute: number) => string): string {
  return value < 0 ? `-${body(-value)}` : body(value);
}

/**
 * A currency value with two to six decimals (as many as it needs, trailing zeros dropped beyond two):
 * $0.000013, $1.50, $12.345678. A non-zero value too small for six decimals reads "<$0.000001", never $0.00.
 */
export function formatCurrencyValue(value: number, display: QuotaDisplay): string {
  if (display.type === 'TOKENS') return wholeNumber.format(Math.round(value));
  const smallest = 10 ** -maxDecimals;
  return signed(value, (absolute) =>
    absolute > 0 && absolute < smallest / 2 ? `<${display.symbol}${smallest.toFixed(maxDecimals)}` : `${display.symbol}${currencyNumber.format(absolute)}`,
  );
}

/** The amount as the console shows it: the display currency with enough decimals, or grouped raw quota. */
export function formatQuotaAmount(quota: number, display: QuotaDisplay): string {
  return formatCurrencyValue(currencyValueOf(quota, display), display);
}

/**
 * The amount at full precision (up to twelve decimals), for the hover text beside the raw quota; in
 * US dollars when the console shows raw quota.
 */
export function formatQuotaExact(quota: number, display: QuotaDisplay): string {
  const currency = display.type === 'TOKENS' ? { ...display, type: 'USD' as const, symbol: '$', rate: 1 } : display;
  return signed(currencyValueOf(quota, currency), (absolute) => `${currency.symbol}${exactNumber.format(absolute)}`);
}

/** Raw quota units, grouped (1,234,567). */
export function formatQuotaUnits(quota: number): string {
  return wholeNumber.format(quota);
}
