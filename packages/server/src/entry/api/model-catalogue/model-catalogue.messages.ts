import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

/** new-api's own words for its catalogue refusals (controller/model_meta.go, vendor_meta.go). */
export const modelCatalogueMessages = {
  modelNameRequired: { zh: '模型名称不能为空', en: 'The model name must not be empty' },
  modelNameTaken: { zh: '模型名称已存在', en: 'A model with this name already exists' },
  modelNotFound: { zh: '模型不存在', en: 'Model not found' },
  vendorNameRequired: { zh: '供应商名称不能为空', en: 'The vendor name must not be empty' },
  vendorNameTaken: { zh: '供应商名称已存在', en: 'A vendor with this name already exists' },
  vendorNotFound: { zh: '供应商不存在', en: 'Vendor not found' },
} satisfies Record<string, LocalizedMessage>;
