import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * DeepSeek speaks OpenAI's API under `/v1`.
 * @see https://api-docs.deepseek.com
 */
export const deepseekProvider = createOpenAICompatibleProvider({ id: 'deepseek', channelTypes: [43] });
