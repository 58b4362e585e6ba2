import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * Alibaba DashScope (compatible mode) speaks OpenAI's API with `/compatible-mode/v1` in place of `/v1`.
 * @see https://help.aliyun.com/zh/model-studio/compatibility-of-openai-with-dashscope
 */
export const aliProvider = createOpenAICompatibleProvider({
  id: 'ali',
  channelTypes: [17],
  versionPath: '/compatible-mode/v1',
  capabilities: ['chat', 'completions', 'embeddings'],
});
