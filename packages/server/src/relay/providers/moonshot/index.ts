import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * Moonshot (Kimi) speaks OpenAI's API under `/v1`.
 * @see https://platform.moonshot.cn/docs/api/chat
 */
export const moonshotProvider = createOpenAICompatibleProvider({ id: 'moonshot', channelTypes: [25] });
