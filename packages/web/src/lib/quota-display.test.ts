import type { SystemStatus } from '@switchboard/contracts';
import { describe, expect, it } from 'vitest';
import { currencyValueOf, formatCurrencyValue, formatQuotaAmount, formatQuotaExact, formatQuotaUnits, quotaDisplayOf } from './quota-display.ts';

const status = (fields: Partial<SystemStatus>) => ({ quota_per_unit: 500_000, display_in_currency: true, ...fields }) as SystemStatus;
const usd = quotaDisplayOf(status({ quota_display_type: 'USD' }));

describe('quota display', () => {
  it('never shows a non-zero charge as $0.00', () => {
    expect(formatQuotaAmount(1, usd)).toBe('$0.000002');
    expect(formatQuotaAmount(7, usd)).toBe('$0.000014');
    expect(formatQuotaAmount(2_500, usd)).toBe('$0.005');
    expect(formatQuotaAmount(0, usd)).toBe('$0.00');
  });

  it('shows two decimals at least, up to six, with grouping', () => {
    expect(formatQuotaAmount(750_000, usd)).toBe('$1.50');
    expect(formatQuotaAmount(500_000 * 1234 + 3, usd)).toBe('$1,234.000006');
    expect(formatQuotaAmount(-6, usd)).toBe('-$0.000012');
  });

  it('adds rows to the total they show (six decimals are exact at 500,000 per dollar)', () => {
    const rows = [1, 6, 13, 250_001];
    const shown = rows.map((quota) => Number(formatQuotaAmount(quota, usd).replace(/[$,]/g, '')));
    const total = Number(
      formatQuotaAmount(
        rows.reduce((sum, quota) => sum + quota, 0),
        usd,
      ).replace(/[$,]/g, ''),
    );
    expect(shown.reduce((sum, value) => sum + value, 0)).toBeCloseTo(total, 9);
  });

  it('converts to yuan and to a custom currency at their rates', () => {
    const cny = quotaDisplayOf(status({ quota_display_type: 'CNY', usd_exchange_rate: 7 }));
    expect(formatQuotaAmount(500_000, cny)).toBe('¥7.00');
    expect(formatQuotaAmount(1, cny)).toBe('¥0.000014');
    const custom = quotaDisplayOf(status({ quota_display_type: 'CUSTOM', custom_currency_symbol: '€', custom_currency_exchange_rate: 0.5 }));
    expect(formatQuotaAmount(500_000, custom)).toBe('€0.50');
  });

  it('reads a value too small for six decimals as below the smallest step, not zero', () => {
    const tiny = quotaDisplayOf(status({ quota_display_type: 'CUSTOM', custom_currency_symbol: '¤', custom_currency_exchange_rate: 0.01 }));
    expect(formatQuotaAmount(1, tiny)).toBe('<¤0.000001');
    expect(formatCurrencyValue(0, tiny)).toBe('¤0.00');
  });

  it('shows raw quota grouped, exactly, in TOKENS mode and when DisplayInCurrencyEnabled is off', () => {
    const tokens = quotaDisplayOf(status({ quota_display_type: 'TOKENS' }));
    expect(formatQuotaAmount(1_234_567, tokens)).toBe('1,234,567');
    expect(currencyValueOf(42, tokens)).toBe(42);
    expect(quotaDisplayOf(status({ display_in_currency: false })).type).toBe('TOKENS');
    expect(quotaDisplayOf(undefined)).toEqual({ type: 'USD', quotaPerUnit: 500_000, symbol: '$', rate: 1 });
  });

  it('gives the exact amount for the hover text, in dollars when showing raw quota', () => {
    expect(formatQuotaExact(13, usd)).toBe('$0.000026');
    const cny = quotaDisplayOf(status({ quota_display_type: 'CNY', usd_exchange_rate: 7.3 }));
    expect(formatQuotaExact(1, cny)).toBe('¥0.0000146');
    expect(formatQuotaExact(3, quotaDisplayOf(status({ quota_display_type: 'TOKENS' })))).toBe('$0.000006');
    expect(formatQuotaUnits(1_000_000)).toBe('1,000,000');
  });

  it('falls back to sane rates when the status holds none', () => {
    const broken = quotaDisplayOf(status({ quota_per_unit: 0, quota_display_type: 'CUSTOM', custom_currency_symbol: '', custom_currency_exchange_rate: 0 }));
    expect(broken).toEqual({ type: 'CUSTOM', quotaPerUnit: 500_000, symbol: '¤', rate: 1 });
  });
});
