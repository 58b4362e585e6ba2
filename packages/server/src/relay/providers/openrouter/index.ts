import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * OpenRouter speaks OpenAI's API under `/v1`.
 * @see https://openrouter.ai/docs/api-reference/overview
 */
export const openrouterProvider = createOpenAICompatibleProvider({ id: 'openrouter', channelTypes: [20] });
