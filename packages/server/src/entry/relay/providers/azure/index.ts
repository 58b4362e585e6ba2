import type { ChannelTarget, EndpointCapability, Provider, RelayRequest } from '../../provider.ts';
import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';
import { azureApiVersion, withoutUnsupportedStreamOptions } from './azure-api-version.ts';

/**
 * `{endpoint}/openai/deployments/{deployment}/{task}?api-version=…`: the deployment name is the
 * (mapped) model name, as the channel form warns; the Responses API lives outside deployments.
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/reference
 */
export function azureUrl(request: RelayRequest, target: ChannelTarget): string {
  const apiVersion = encodeURIComponent(azureApiVersion(target));
  const task = request.path.startsWith('/v1/') ? request.path.slice(4) : request.path.replace(/^\//, '');
  if (task === 'responses') return `${target.baseUrl}/openai/v1/responses?api-version=preview`;
  return `${target.baseUrl}/openai/deployments/${encodeURIComponent(request.upstreamModel)}/${task}?api-version=${apiVersion}`;
}

const openAICompatible = createOpenAICompatibleProvider({
  id: 'azure',
  channelTypes: [3],
  capabilities: ['chat', 'completions', 'embeddings', 'images', 'audio', 'responses'],
  resolveUrl: azureUrl,
  authHeaders: (target) => ({ 'api-key': target.key }),
});

/** Streaming endpoints send only what the channel's API version accepts. */
function forApiVersion(capability: EndpointCapability | undefined): EndpointCapability | undefined {
  if (!capability) return undefined;
  return {
    ...capability,
    buildRequest(request, target) {
      const adjusted = withoutUnsupportedStreamOptions(request, azureApiVersion(target));
      const upstream = capability.buildRequest(adjusted.request, target);
      return adjusted.warnings.length > 0 ? { ...upstream, warnings: [...(upstream.warnings ?? []), ...adjusted.warnings] } : upstream;
    },
  };
}

/**
 * Azure OpenAI (channel type 3): OpenAI's wire format at deployment URLs with the `api-key` header,
 * so OpenAI's pass-through handling is reused; only parameters the channel's API version predates
 * are left out.
 */
export const azureProvider: Provider = {
  ...openAICompatible,
  chat: forApiVersion(openAICompatible.chat),
  completions: forApiVersion(openAICompatible.completions),
};
