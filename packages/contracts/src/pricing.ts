import type { Envelope } from './envelope.ts';
import type { PricingVendor } from './model-catalogue.ts';

/** `quota_type` of a price: per token (ratios) or per call (a fixed price). */
export const QuotaType = {
  perToken: 0,
  perCall: 1,
} as const;

/** One model of the public price list. */
export interface PricingEntry {
  model_name: string;
  /** See QuotaType. */
  quota_type: (typeof QuotaType)[keyof typeof QuotaType];
  model_ratio: number;
  model_price: number;
  completion_ratio: number;
  owner_by: string;
  /** Groups whose channels serve this model. */
  enable_groups: string[];
  /** From the model catalogue, absent when empty (as new-api's omitempty). */
  description?: string;
  icon?: string;
  /** Comma-separated. */
  tags?: string;
  vendor_id?: number;
  /** new-api endpoint types (`openai`, `anthropic`, …), the preferred one first. */
  supported_endpoint_types: string[];
}

/**
 * `GET /api/pricing` (public): the list in `data`, and beside it, as the classic console reads them,
 * the group ratios and the groups the caller may use (mapped to their description).
 */
export interface PricingAnswer extends Envelope<PricingEntry[]> {
  group_ratio: Record<string, number>;
  usable_group: Record<string, string>;
  vendors: PricingVendor[];
  /** Each endpoint type listed above, with its path and method. */
  supported_endpoint: Record<string, { path: string; method: string }>;
}
