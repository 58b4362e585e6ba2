import type { ChannelTarget, RelayRequest } from '../../provider.ts';
import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';
import { readOpenAIBillingBalance } from '../openai/openai-balance.ts';

/**
 * The custom channel (type 8): an OpenAI-compatible server at an administrator-given address. The
 * address may contain `{model}`, replaced by the upstream model name (for gateways that route by
 * path); the caller's path (`/v1/chat/completions`, …) is appended to it.
 */
export function customUrl(request: RelayRequest, target: ChannelTarget): string {
  return `${target.baseUrl.replaceAll('{model}', encodeURIComponent(request.upstreamModel))}${request.path}`;
}

export const customProvider = createOpenAICompatibleProvider({
  id: 'custom',
  channelTypes: [8],
  resolveUrl: customUrl,
  fetchBalance: readOpenAIBillingBalance,
});
