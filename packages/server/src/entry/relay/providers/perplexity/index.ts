import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * Perplexity speaks OpenAI's API with `` in place of `/v1`.
 * @see https://docs.perplexity.ai/api-reference/chat-completions
 */
export const perplexityProvider = createOpenAICompatibleProvider({ id: 'perplexity', channelTypes: [27], versionPath: '', capabilities: ['chat'] });
