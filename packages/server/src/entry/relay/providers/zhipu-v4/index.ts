import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * Zhipu GLM (API v4) speaks OpenAI's API with `/api/paas/v4` in place of `/v1`.
 * @see https://open.bigmodel.cn/dev/api
 */
export const zhipuV4Provider = createOpenAICompatibleProvider({
  id: 'zhipu-v4',
  channelTypes: [26],
  versionPath: '/api/paas/v4',
  capabilities: ['chat', 'embeddings', 'images'],
});
