import type { OptionStore } from '../options/option-store.ts';
import type { PriceTables } from './pricing.ts';

type NumberMap = Record<string, number>;

/**
 * The price tables read from the options in memory. OptionStore caches each parsed JSON value until
 * the option changes, so building this per request costs a few map lookups.
 */
export function readPriceTables(options: OptionStore): PriceTables {
  return {
    modelRatio: options.getJson<NumberMap>('ModelRatio') ?? {},
    completionRatio: options.getJson<NumberMap>('CompletionRatio') ?? {},
    modelPrice: options.getJson<NumberMap>('ModelPrice') ?? {},
    cacheRatio: options.getJson<NumberMap>('CacheRatio') ?? {},
    createCacheRatio: options.getJson<NumberMap>('CreateCacheRatio') ?? {},
    audioRatio: options.getJson<NumberMap>('AudioRatio') ?? {},
    audioCompletionRatio: options.getJson<NumberMap>('AudioCompletionRatio') ?? {},
    groupRatio: options.getJson<NumberMap>('GroupRatio') ?? {},
    groupGroupRatio: options.getJson<Record<string, NumberMap>>('GroupGroupRatio') ?? {},
    toolPrices: options.getJson<NumberMap>('tool_price_setting.prices') ?? {},
    quotaPerUnit: options.getNumber('QuotaPerUnit'),
  };
}
