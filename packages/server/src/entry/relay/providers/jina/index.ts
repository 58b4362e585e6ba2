import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * Jina (embeddings and rerank) speaks OpenAI's API under `/v1`.
 * @see https://jina.ai/reranker/
 */
export const jinaProvider = createOpenAICompatibleProvider({ id: 'jina', channelTypes: [38], capabilities: ['embeddings', 'rerank'] });
