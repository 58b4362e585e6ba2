import type { OptionStore } from '../options/option-store.ts';
import type { PriceTables } from './pricing.ts';

type NumberMap = Record<string, number>;

/** The tables built last from each store, and the store's generation they were built at. */
const built = new WeakMap<OptionStore, { generation: number; tables: PriceTables }>();

/**
 * The price tables read from the options in memory: built once per change of the options (one lookup
 * per request instead of nine option reads and an object), the same parsed values either way.
 */
export function readPriceTables(options: OptionStore): PriceTables {
  const cached = built.get(options);
  if (cached && cached.generation === options.generation) return cached.tables;
  const tables = buildPriceTables(options);
  built.set(options, { generation: options.generation, tables });
  return tables;
}

function buildPriceTables(options: OptionStore): PriceTables {
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
