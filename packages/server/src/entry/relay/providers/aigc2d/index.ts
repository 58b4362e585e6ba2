import { readCreditGrants } from '../openai-compatible/account-readers.ts';
import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/** AIGC2D: OpenAI's API; its balance is `total_available` of the credit-grants answer. */
export const aigc2dProvider = createOpenAICompatibleProvider({ id: 'aigc2d', channelTypes: [13], fetchBalance: readCreditGrants('total_available') });
