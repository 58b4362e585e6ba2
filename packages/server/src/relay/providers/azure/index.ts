import type { ChannelTarget, RelayRequest } from '../../provider.ts';
import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/** The channel form's default (spec: Azure API version 2023-06-01-preview), used when `other` is empty. */
export const defaultAzureApiVersion = '2023-06-01-preview';

/**
 * `{endpoint}/openai/deployments/{deployment}/{task}?api-version=…`: the deployment name is the
 * (mapped) model name, as the channel form warns; the Responses API lives outside deployments.
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/reference
 */
export function azureUrl(request: RelayRequest, target: ChannelTarget): string {
  const apiVersion = encodeURIComponent(target.other.trim() || defaultAzureApiVersion);
  const task = request.path.startsWith('/v1/') ? request.path.slice(4) : request.path.replace(/^\//, '');
  if (task === 'responses') return `${target.baseUrl}/openai/v1/responses?api-version=preview`;
  return `${target.baseUrl}/openai/deployments/${encodeURIComponent(request.upstreamModel)}/${task}?api-version=${apiVersion}`;
}

/**
 * Azure OpenAI (channel type 3): OpenAI's wire format at deployment URLs with the `api-key` header,
 * so OpenAI's pass-through handling is reused unchanged.
 */
export const azureProvider = createOpenAICompatibleProvider({
  id: 'azure',
  channelTypes: [3],
  capabilities: ['chat', 'completions', 'embeddings', 'images', 'audio', 'responses'],
  resolveUrl: azureUrl,
  authHeaders: (target) => ({ 'api-key': target.key }),
});
