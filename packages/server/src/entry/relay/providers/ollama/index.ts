import { z } from 'zod';
import type { AccountCall, ChannelTarget } from '../../provider.ts';
import { getAccountJson } from '../../transport/account-json.ts';
import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

const optionalBearer = (target: ChannelTarget): Record<string, string> => (target.key ? { authorization: `Bearer ${target.key}` } : {});
const tags = z.object({ models: z.array(z.object({ name: z.string() })) });

/** The locally pulled models. @see https://github.com/ollama/ollama/blob/main/docs/api.md#list-local-models */
async function listModels(target: ChannelTarget, call: AccountCall): Promise<string[]> {
  return (await getAccountJson(call, target, `${target.baseUrl}/api/tags`, optionalBearer(target), tags)).models.map((model) => model.name);
}

/**
 * Ollama through its OpenAI-compatible endpoint (`/v1/chat/completions`, `/v1/completions`,
 * `/v1/embeddings`); the key is optional and sent as a bearer token when set.
 * @see https://github.com/ollama/ollama/blob/main/docs/openai.md
 */
export const ollamaProvider = createOpenAICompatibleProvider({
  id: 'ollama',
  channelTypes: [4],
  capabilities: ['chat', 'completions', 'embeddings'],
  authHeaders: optionalBearer,
  listModels,
});
