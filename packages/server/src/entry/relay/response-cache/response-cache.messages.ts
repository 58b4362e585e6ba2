import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

/** Refusals of the response-cache and fallback options, and of the cache's console routes. */
export const responseCacheMessages = {
  rulesNotList: {
    zh: 'ResponseCacheRules 必须是规则数组，例如 [{"model": "gpt-4o*", "ttl": 300, "hit_ratio": 0.1, "scope": "shared"}]',
    en: 'ResponseCacheRules must be a list of rules, e.g. [{"model": "gpt-4o*", "ttl": 300, "hit_ratio": 0.1, "scope": "shared"}]',
  },
  ruleBadField: {
    zh: 'ResponseCacheRules 第 {index} 条规则的 {field} 不正确：{expected}',
    en: 'ResponseCacheRules rule {index}: {field} is invalid, expected {expected}',
  },
  ruleUnknownField: {
    zh: 'ResponseCacheRules 第 {index} 条规则含未知字段 {field}',
    en: 'ResponseCacheRules rule {index} has an unknown field {field}',
  },
  fallbacksBad: {
    zh: '{key} 必须是对象，每个模型对应非空的模型名数组，例如 {"gpt-5": ["gpt-5-mini"]}',
    en: '{key} must be an object mapping each model to a non-empty list of model names, e.g. {"gpt-5": ["gpt-5-mini"]}',
  },
  fallbackToItself: {
    zh: '{key}：模型 {model} 不能回退到它自己',
    en: '{key}: model {model} cannot fall back to itself',
  },
  tokenFallbacksBad: {
    zh: '令牌的模型回退必须是对象，每个模型对应非空的模型名数组',
    en: "The token's model fallbacks must map each model to a non-empty list of model names",
  },
} satisfies Record<string, LocalizedMessage>;
