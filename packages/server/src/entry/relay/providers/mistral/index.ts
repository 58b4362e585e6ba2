import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * Mistral AI speaks OpenAI's API under `/v1`.
 * @see https://docs.mistral.ai/api/
 */
export const mistralProvider = createOpenAICompatibleProvider({ id: 'mistral', channelTypes: [42] });
