import { defaultEndpointPaths } from '@switchboard/contracts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';

/** Channel types whose native API is more than OpenAI's (constant/channel.go numbers, as ours). */
const channelTypeEndpoints: Readonly<Record<number, readonly string[]>> = {
  14: ['anthropic', 'openai'], // Anthropic
  33: ['anthropic', 'openai'], // AWS Bedrock (Claude)
  24: ['gemini', 'openai'], // Gemini
  41: ['gemini', 'openai'], // Vertex AI
  38: ['jina-rerank'], // Jina
  20: ['openai'], // OpenRouter
  48: ['openai', 'openai-response'], // xAI
};

/**
 * The endpoint types a channel of this type offers for a model, the preferred first: new-api's
 * GetEndpointTypesByChannelType, plus the embedding and rerank endpoints our relay serves for
 * models named so (new-api lists those as chat models).
 */
export function endpointTypesFor(channelType: number, modelName: string): string[] {
  const lower = modelName.toLowerCase();
  if (/^(dall-e|gpt-image|imagen)/.test(lower)) return ['image-generation'];
  if (lower.includes('embedding') || lower.startsWith('embed-')) return ['embeddings'];
  if (lower.includes('rerank')) return ['jina-rerank'];
  const byType = channelTypeEndpoints[channelType];
  if (byType) return [...byType];
  if (/^(o1-pro|o3-pro|o3-deep-research|o4-mini-deep-research|codex-mini)/.test(lower)) return ['openai-response'];
  return ['openai'];
}

export interface EndpointInfo {
  path: string;
  method: string;
}

/**
 * A catalogue row's own `endpoints` (JSON: type → path, or type → {path, method}), as new-api reads
 * it: an entry of another shape is skipped, and text that is not such an object means "none".
 */
export function customEndpoints(text: string | null): Map<string, EndpointInfo> {
  const endpoints = new Map<string, EndpointInfo>();
  if (!text || text.trim() === '') return endpoints;
  const parsed = safeParseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return endpoints;
  for (const [type, value] of Object.entries(parsed.value as Record<string, unknown>)) {
    if (typeof value === 'string') endpoints.set(type, { path: value, method: 'POST' });
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const entry = value as { path?: unknown; method?: unknown };
      endpoints.set(type, {
        path: typeof entry.path === 'string' ? entry.path : '',
        method: typeof entry.method === 'string' ? entry.method.toUpperCase() : 'POST',
      });
    }
  }
  return endpoints;
}

/** The default path and method of an endpoint type, when it has one. */
export function defaultEndpoint(type: string): EndpointInfo | undefined {
  return defaultEndpointPaths[type];
}
