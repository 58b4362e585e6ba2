import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';
import { readOpenAIBillingBalance } from './openai-balance.ts';

/**
 * OpenAI itself.
 * @see https://platform.openai.com/docs/api-reference
 */
export const openaiProvider = createOpenAICompatibleProvider({ id: 'openai', channelTypes: [1], fetchBalance: readOpenAIBillingBalance });
