import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * Ollama through its OpenAI-compatible endpoint (`/v1/chat/completions`, `/v1/completions`,
 * `/v1/embeddings`); the key is optional and sent as a bearer token when set.
 * @see https://github.com/ollama/ollama/blob/main/docs/openai.md
 */
export const ollamaProvider = createOpenAICompatibleProvider({
  id: 'ollama',
  channelTypes: [4],
  capabilities: ['chat', 'completions', 'embeddings'],
  authHeaders: (target): Record<string, string> => (target.key ? { authorization: `Bearer ${target.key}` } : {}),
});
