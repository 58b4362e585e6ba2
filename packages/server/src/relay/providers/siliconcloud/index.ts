import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * SiliconCloud (SiliconFlow) speaks OpenAI's API under `/v1`.
 * @see https://docs.siliconflow.cn/cn/api-reference/chat-completions/chat-completions
 */
export const siliconcloudProvider = createOpenAICompatibleProvider({ id: 'siliconcloud', channelTypes: [40] });
