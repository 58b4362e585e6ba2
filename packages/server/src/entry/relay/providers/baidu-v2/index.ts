import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * Baidu Qianfan V2 speaks OpenAI's API with `/v2` in place of `/v1`.
 * @see https://cloud.baidu.com/doc/WENXINWORKSHOP/s/Fm2vrveyu
 */
export const baiduV2Provider = createOpenAICompatibleProvider({
  id: 'baidu-v2',
  channelTypes: [46],
  versionPath: '/v2',
  capabilities: ['chat', 'embeddings', 'images', 'rerank'],
});
