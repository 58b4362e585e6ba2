import { z } from 'zod';
import type { AccountCall, ChannelTarget } from '../../provider.ts';
import { getAccountJson } from '../../transport/account-json.ts';
import { bearer, numeric } from '../openai-compatible/account-readers.ts';
import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

const balance = z.object({ data: z.object({ available_balance: numeric }) });

/** @see https://platform.moonshot.cn/docs/api/balance */
async function fetchBalance(target: ChannelTarget, call: AccountCall): Promise<number> {
  return (await getAccountJson(call, target, `${target.baseUrl}/v1/users/me/balance`, bearer(target.key), balance)).data.available_balance;
}

/**
 * Moonshot (Kimi) speaks OpenAI's API under `/v1`.
 * @see https://platform.moonshot.cn/docs/api/chat
 */
export const moonshotProvider = createOpenAICompatibleProvider({ id: 'moonshot', channelTypes: [25], fetchBalance });
