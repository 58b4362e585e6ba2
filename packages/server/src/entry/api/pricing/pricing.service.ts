import type { PricingEntry, UnpricedModels } from '@switchboard/contracts';
import { readPriceTables } from '../../../domain/billing/price-tables.ts';
import { hasPrice, resolvePricing } from '../../../domain/billing/pricing.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { usableGroups } from '../../../domain/groups/usable-groups.ts';
import type { PricingCatalogue } from '../model-catalogue/pricing-catalogue.ts';
import type { PricingRepository } from './pricing.repository.ts';

/**
 * The public price list: every priced model some enabled channel serves, per token (quota_type 0) or
 * per call (1), with the groups it is available in; group ratios and the groups the caller may use
 * (limited to groups that have a ratio). Unpriced models appear only in self-use mode, at the
 * fallback ratio the relay would charge. The model catalogue adds vendor, icon, tags, description and
 * endpoint types to each model (and hides those it disables), with the vendors and endpoint paths beside.
 */
export function buildPricing(options: OptionStore, served: Map<string, string[]>, userGroup: string, catalogue: PricingCatalogue) {
  const tables = readPriceTables(options);
  const acceptUnpriced = options.getBoolean('SelfUseModeEnabled');
  const data: PricingEntry[] = [];
  for (const [model, groups] of [...served.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const pricing = resolvePricing(tables, model, { userGroup: 'default', usingGroup: 'default' }, acceptUnpriced);
    const details = catalogue.describe(model);
    if (!pricing || !details) continue;
    data.push({
      model_name: model,
      quota_type: pricing.usePrice ? 1 : 0,
      model_ratio: pricing.usePrice ? 0 : pricing.modelRatio,
      model_price: pricing.usePrice ? pricing.modelPrice : 0,
      completion_ratio: pricing.completionRatio,
      owner_by: '',
      enable_groups: groups,
      ...details,
    });
  }
  const usable = usableGroups(options, userGroup);
  const groupRatio = Object.fromEntries(Object.entries(tables.groupRatio).filter(([group]) => group in usable));
  const endpointTypes = new Set(data.flatMap((entry) => entry.supported_endpoint_types));
  return {
    data,
    group_ratio: groupRatio,
    usable_group: usable,
    vendors: catalogue.vendorList(),
    supported_endpoint: catalogue.supportedEndpoints(endpointTypes),
  };
}

export type Pricing = ReturnType<typeof buildPricing>;

/** The price list as a caller of the given user group sees it ('' when not logged in). */
export class PricingService {
  private readonly repository: PricingRepository;
  private readonly options: OptionStore;
  private readonly catalogue: () => Promise<PricingCatalogue>;

  constructor(dependencies: { repository: PricingRepository; options: OptionStore; catalogue: () => Promise<PricingCatalogue> }) {
    this.repository = dependencies.repository;
    this.options = dependencies.options;
    this.catalogue = dependencies.catalogue;
  }

  async pricing(userGroup: string): Promise<Pricing> {
    return buildPricing(this.options, await this.repository.servedModels(), userGroup, await this.catalogue());
  }

  /**
   * Which of `models` (every model a channel lists when none are named) callers would be refused for
   * lack of a price or ratio. None in self-use mode, where every model may be called.
   */
  async unpriced(models: string[] | undefined): Promise<UnpricedModels> {
    if (this.options.getBoolean('SelfUseModeEnabled')) return { self_use_mode: true, models: [] };
    const tables = readPriceTables(this.options);
    const named = models ?? (await this.repository.channelModels());
    return { self_use_mode: false, models: [...new Set(named)].filter((model) => !hasPrice(tables, model)) };
  }
}
