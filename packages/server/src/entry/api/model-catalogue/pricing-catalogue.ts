import type { PricingVendor } from '@switchboard/contracts';
import { customEndpoints, defaultEndpoint, type EndpointInfo, endpointTypesFor } from './endpoint-types.ts';
import type { ModelCatalogueRepository, ModelRow, ServedAbility, VendorRow } from './model-catalogue.repository.ts';
import { describingRow } from './name-rule.ts';
import { inferVendor, isNamedAs } from './vendor-inference.ts';

/** What the catalogue adds to one model of the price list (new-api's Pricing fields, omitted when empty). */
export interface PricingDetails {
  description?: string;
  icon?: string;
  tags?: string;
  vendor_id?: number;
  supported_endpoint_types: string[];
}

/**
 * The catalogue as `GET /api/pricing` reads it (new-api's model/pricing.go updatePricing): each
 * served model gets the description, icon, tags and vendor of the row describing it (a model whose
 * row is disabled is left out), and the endpoint types its channels offer unless the row names its
 * own. A model no row describes gets the vendor its name suggests, when that vendor exists.
 */
export class PricingCatalogue {
  private readonly models: readonly ModelRow[];
  private readonly vendors: readonly VendorRow[];
  private readonly channelTypes = new Map<string, number[]>();
  private readonly endpointInfo = new Map<string, EndpointInfo>();

  constructor(models: readonly ModelRow[], vendors: readonly VendorRow[], served: readonly ServedAbility[]) {
    this.models = models;
    this.vendors = vendors;
    for (const ability of served) {
      const types = this.channelTypes.get(ability.model) ?? [];
      if (!types.includes(Number(ability.channel_type))) types.push(Number(ability.channel_type));
      this.channelTypes.set(ability.model, types);
    }
  }

  /** The catalogue's part of a model's entry, or undefined when its row hides it. */
  describe(modelName: string): PricingDetails | undefined {
    const row = describingRow(this.models, modelName);
    if (row && Number(row.status) !== 1) return undefined;
    const own = customEndpoints(row?.endpoints ?? null);
    for (const [type, info] of own) this.endpointInfo.set(type, info);
    const types = own.size > 0 ? [...own.keys()] : this.servedEndpointTypes(modelName);
    const vendorId = row ? Number(row.vendor_id) : this.inferredVendorId(modelName);
    return {
      ...(row?.description ? { description: row.description } : {}),
      ...(row?.icon ? { icon: row.icon } : {}),
      ...(row?.tags ? { tags: row.tags } : {}),
      ...(vendorId ? { vendor_id: vendorId } : {}),
      supported_endpoint_types: types,
    };
  }

  /** new-api's `vendors` beside the list: every live vendor. */
  vendorList(): PricingVendor[] {
    return this.vendors.map((vendor) => ({
      id: Number(vendor.id),
      name: vendor.name,
      ...(vendor.description ? { description: vendor.description } : {}),
      ...(vendor.icon ? { icon: vendor.icon } : {}),
    }));
  }

  /** new-api's `supported_endpoint`: path and method of every type listed, a row's own paths first. */
  supportedEndpoints(types: Iterable<string>): Record<string, EndpointInfo> {
    const map: Record<string, EndpointInfo> = {};
    for (const type of types) {
      const info = this.endpointInfo.get(type) ?? defaultEndpoint(type);
      if (info) map[type] = info;
    }
    return map;
  }

  private servedEndpointTypes(modelName: string): string[] {
    const types: string[] = [];
    for (const channelType of this.channelTypes.get(modelName) ?? [1])
      for (const type of endpointTypesFor(channelType, modelName)) if (!types.includes(type)) types.push(type);
    return types;
  }

  private inferredVendorId(modelName: string): number {
    const inferred = inferVendor(modelName);
    const vendor = inferred ? this.vendors.find((candidate) => isNamedAs(inferred, candidate.name)) : undefined;
    return vendor ? Number(vendor.id) : 0;
  }
}

export async function loadPricingCatalogue(repository: ModelCatalogueRepository): Promise<PricingCatalogue> {
  const models = await repository.allModels();
  const vendors = await repository.allVendors();
  return new PricingCatalogue(models, vendors, await repository.servedAbilities());
}
