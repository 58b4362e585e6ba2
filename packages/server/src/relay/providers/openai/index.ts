import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * OpenAI itself, and the resellers and self-hosted servers that copy its API exactly (OpenAI Max,
 * OhMyGPT, AILS, AI Proxy, API2GPT, AIGC2D, 360, FastGPT, Xinference).
 * @see https://platform.openai.com/docs/api-reference
 */
export const openaiProvider = createOpenAICompatibleProvider({ id: 'openai', channelTypes: [1, 6, 7, 9, 10, 12, 13, 19, 22, 47] });
