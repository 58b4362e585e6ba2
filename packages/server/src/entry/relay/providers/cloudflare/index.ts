import type { Provider } from '../../provider.ts';
import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';
import { listCloudflareModels } from './cloudflare-models.ts';
import { cloudflareOpenAIUrl } from './cloudflare-url.ts';
import { parseCloudflareError } from './parse-cloudflare-error.ts';

/**
 * Cloudflare Workers AI (channel type 39): the account's OpenAI-compatible endpoints (chat,
 * embeddings, responses) with the bearer API token, the account id in the channel's extra field.
 * Answers pass through as OpenAI's; errors come in Cloudflare's v4 envelope. Cloudflare has no
 * balance API for Workers AI.
 * @see https://developers.cloudflare.com/workers-ai/configuration/open-ai-compatibility/
 */
export const cloudflareProvider: Provider = {
  ...createOpenAICompatibleProvider({
    id: 'cloudflare',
    channelTypes: [39],
    capabilities: ['chat', 'embeddings', 'responses'],
    resolveUrl: (request, target) => cloudflareOpenAIUrl(request.path, target),
    listModels: listCloudflareModels,
  }),
  parseError: parseCloudflareError,
};
