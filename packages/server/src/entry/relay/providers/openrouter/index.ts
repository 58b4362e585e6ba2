import { z } from 'zod';
import type { AccountCall, ChannelTarget } from '../../provider.ts';
import { getAccountJson } from '../../transport/account-json.ts';
import { bearer, numeric } from '../openai-compatible/account-readers.ts';
import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

const credits = z.object({ data: z.object({ total_credits: numeric, total_usage: numeric }) });

/** @see https://openrouter.ai/docs/api-reference/get-credits */
async function fetchBalance(target: ChannelTarget, call: AccountCall): Promise<number> {
  const body = await getAccountJson(call, target, `${target.baseUrl}/api/v1/credits`, bearer(target.key), credits);
  return body.data.total_credits - body.data.total_usage;
}

/**
 * OpenRouter speaks OpenAI's API under `/v1`.
 * @see https://openrouter.ai/docs/api-reference/overview
 */
export const openrouterProvider = createOpenAICompatibleProvider({ id: 'openrouter', channelTypes: [20], fetchBalance });
