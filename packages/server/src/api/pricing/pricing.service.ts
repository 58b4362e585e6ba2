import type { PricingEntry } from '@switchboard/contracts';
import { readPriceTables } from '../../billing/price-tables.ts';
import { resolvePricing } from '../../billing/pricing.ts';
import type { OptionStore } from '../../options/option-store.ts';
import { usableGroups } from '../../groups/usable-groups.ts';
import type { PricingRepository } from './pricing.repository.ts';

/**
 * The public price list: every priced model some enabled channel serves, per token (quota_type 0) or
 * per call (1), with the groups it is available in; group ratios and the groups the caller may use
 * (limited to groups that have a ratio). Unpriced models appear only in self-use mode, at the
 * fallback ratio the relay would charge.
 */
export function buildPricing(options: OptionStore, served: Map<string, string[]>, userGroup: string) {
  const tables = readPriceTables(options);
  const acceptUnpriced = options.getBoolean('SelfUseModeEnabled');
  const data: PricingEntry[] = [];
  for (const [model, groups] of [...served.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const pricing = resolvePricing(tables, model, { userGroup: 'default', usingGroup: 'default' }, acceptUnpriced);
    if (!pricing) continue;
    data.push({
      model_name: model,
      quota_type: pricing.usePrice ? 1 : 0,
      model_ratio: pricing.usePrice ? 0 : pricing.modelRatio,
      model_price: pricing.usePrice ? pricing.modelPrice : 0,
      completion_ratio: pricing.completionRatio,
      owner_by: '',
      enable_groups: groups,
    });
  }
  const usable = usableGroups(options, userGroup);
  const groupRatio = Object.fromEntries(Object.entries(tables.groupRatio).filter(([group]) => group in usable));
  return { data, group_ratio: groupRatio, usable_group: usable };
}

export type Pricing = ReturnType<typeof buildPricing>;

/** The price list as a caller of the given user group sees it ('' when not logged in). */
export class PricingService {
  private readonly repository: PricingRepository;
  private readonly options: OptionStore;

  constructor(dependencies: { repository: PricingRepository; options: OptionStore }) {
    this.repository = dependencies.repository;
    this.options = dependencies.options;
  }

  async pricing(userGroup: string): Promise<Pricing> {
    return buildPricing(this.options, await this.repository.servedModels(), userGroup);
  }
}
