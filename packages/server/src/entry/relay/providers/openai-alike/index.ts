import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

/**
 * Resellers and self-hosted servers that copy OpenAI's API exactly and expose no balance endpoint:
 * OpenAI Max, OhMyGPT, AILS, AI Proxy, 360, FastGPT and Xinference.
 */
export const openaiAlikeProvider = createOpenAICompatibleProvider({ id: 'openai-alike', channelTypes: [6, 7, 9, 10, 19, 22, 47] });
