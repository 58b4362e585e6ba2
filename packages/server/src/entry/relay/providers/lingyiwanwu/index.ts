import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * 01.AI (LingYiWanWu) speaks OpenAI's API under `/v1`.
 * @see https://platform.lingyiwanwu.com/docs
 */
export const lingyiwanwuProvider = createOpenAICompatibleProvider({ id: 'lingyiwanwu', channelTypes: [31] });
