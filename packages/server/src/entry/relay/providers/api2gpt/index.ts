import { readCreditGrants } from '../openai-compatible/account-readers.ts';
import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/** API2GPT: OpenAI's API; its balance is `total_remaining` of the credit-grants answer. */
export const api2gptProvider = createOpenAICompatibleProvider({ id: 'api2gpt', channelTypes: [12], fetchBalance: readCreditGrants('total_remaining') });
