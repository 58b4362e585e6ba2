import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * xAI (Grok) speaks OpenAI's API under `/v1`.
 * @see https://docs.x.ai/docs/api-reference
 */
export const xaiProvider = createOpenAICompatibleProvider({ id: 'xai', channelTypes: [48] });
