import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * VolcEngine Ark (Doubao) speaks OpenAI's API with `/api/v3` in place of `/v1`.
 * @see https://www.volcengine.com/docs/82379/1298454
 */
export const volcengineProvider = createOpenAICompatibleProvider({
  id: 'volcengine',
  channelTypes: [45],
  versionPath: '/api/v3',
  capabilities: ['chat', 'embeddings', 'images', 'responses'],
});
