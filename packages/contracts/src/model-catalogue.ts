import { z } from 'zod';
import { idNumber, nameText, wholeNumber } from './input-fields.ts';

/**
 * new-api's model catalogue (`models` and `vendors`, routes `/api/models/…` and `/api/vendors/…`):
 * the same columns and JSON names, so its console and scripts keep working against Switchboard.
 */

/** How `model_name` matches served model names (new-api's NameRule* constants). */
export const NameRule = { exact: 0, prefix: 1, contains: 2, suffix: 3 } as const;
export type NameRuleValue = (typeof NameRule)[keyof typeof NameRule];

/** A channel that serves a model, as new-api's `bound_channels` lists it. */
/** `models.status` and `vendors.status`: 1 shows the row; any other value hides it from the price list. */
export const CatalogueStatus = {
  hidden: 0,
  enabled: 1,
} as const;

export interface BoundChannel {
  name: string;
  type: number;
}

export interface ModelMetaView {
  id: number;
  model_name: string;
  description: string;
  /** A @lobehub/icons key such as `OpenAI` or `Claude.Color`; the console draws its own marks. */
  icon: string;
  /** Comma-separated, as new-api stores them. */
  tags: string;
  /** 0: no vendor. */
  vendor_id: number;
  /** JSON text: `{"openai": "/v1/chat/completions"}` or `{"openai": {"path": …, "method": …}}`; '' uses the channels'. */
  endpoints: string;
  /** 1 enabled; any other value hides the model from the price list. */
  status: number;
  /** 0: the administrator owns this row, a sync never changes it. */
  sync_official: number;
  name_rule: NameRuleValue;
  created_time: number;
  updated_time: number;
  /** Enabled channels serving the model (or, for a rule, the models it matches). */
  bound_channels: BoundChannel[];
  enable_groups: string[];
  /** For a prefix/contains/suffix rule: the served model names it matches. */
  matched_models?: string[];
  matched_count?: number;
}

export interface VendorView {
  id: number;
  name: string;
  description: string;
  icon: string;
  status: number;
  created_time: number;
  updated_time: number;
  /** Live models with this vendor. */
  model_count: number;
}

/** `GET /api/models/` and `/api/models/search`: a page, with the model count per vendor id. */
export interface ModelMetaPage {
  items: ModelMetaView[];
  total: number;
  page: number;
  page_size: number;
  vendor_counts: Record<string, number>;
}

/** `POST /api/models/sync_upstream`: what a sync from the channels did (new-api's shape). */
export interface ModelSyncResult {
  created_models: number;
  created_vendors: number;
  updated_models: number;
  skipped_models: string[];
  created_list: string[];
  updated_list: string[];
  source: { locale: string; models_url: string; vendors_url: string };
}

export const modelCatalogueLimits = { modelName: 128, icon: 128, tags: 255, vendorName: 128 } as const;

const statusNumber = wholeNumber.min(0).max(1_000);
const endpointsText = z
  .string()
  .refine((text) => text.trim() === '' || isEndpointMap(text), { params: { rule: 'endpoints-json' } })
  .nullish();

/** An endpoints text is a JSON object whose values are paths or `{path, method}` objects. */
function isEndpointMap(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  return Object.values(parsed).every((value) => typeof value === 'string' || (typeof value === 'object' && value !== null && !Array.isArray(value)));
}

const modelFields = {
  model_name: nameText.max(modelCatalogueLimits.modelName).nullish(),
  description: z.string().max(65_535).nullish(),
  icon: nameText.max(modelCatalogueLimits.icon).nullish(),
  tags: nameText.max(modelCatalogueLimits.tags).nullish(),
  vendor_id: wholeNumber.min(0).nullish(),
  endpoints: endpointsText,
  status: statusNumber.nullish(),
  sync_official: statusNumber.nullish(),
  name_rule: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).nullish(),
};

export const createModelMetaSchema = z.object(modelFields);
export const updateModelMetaSchema = z.object({ ...modelFields, id: idNumber });

const vendorFields = {
  name: nameText.max(modelCatalogueLimits.vendorName).nullish(),
  description: z.string().max(65_535).nullish(),
  icon: nameText.max(modelCatalogueLimits.icon).nullish(),
  status: statusNumber.nullish(),
};

export const createVendorSchema = z.object(vendorFields);
export const updateVendorSchema = z.object({ ...vendorFields, id: idNumber });

/** `overwrite` as new-api's console sends it; here only `vendor` and `icon` can be re-inferred. */
export const modelSyncSchema = z
  .object({
    locale: z.string().max(16).nullish(),
    overwrite: z
      .array(z.object({ model_name: nameText.max(modelCatalogueLimits.modelName), fields: z.array(z.string().max(64)).max(32) }))
      .max(10_000)
      .nullish(),
  })
  .nullish();

/** new-api's endpoint types and their default paths (common/endpoint_defaults.go). */
export const defaultEndpointPaths: Readonly<Record<string, { path: string; method: string }>> = {
  openai: { path: '/v1/chat/completions', method: 'POST' },
  'openai-response': { path: '/v1/responses', method: 'POST' },
  anthropic: { path: '/v1/messages', method: 'POST' },
  gemini: { path: '/v1beta/models/{model}:generateContent', method: 'POST' },
  'jina-rerank': { path: '/v1/rerank', method: 'POST' },
  'image-generation': { path: '/v1/images/generations', method: 'POST' },
  embeddings: { path: '/v1/embeddings', method: 'POST' },
};

/** A vendor as `GET /api/pricing` lists it. */
export interface PricingVendor {
  id: number;
  name: string;
  description?: string;
  icon?: string;
}
