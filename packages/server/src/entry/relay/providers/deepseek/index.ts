import { z } from 'zod';
import type { AccountCall, ChannelTarget } from '../../provider.ts';
import { getAccountJson } from '../../transport/account-json.ts';
import { bearer, numeric } from '../openai-compatible/account-readers.ts';
import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

const balances = z.object({ balance_infos: z.array(z.object({ currency: z.string(), total_balance: numeric })) });

/** The US-dollar balance when the account has one, else its first currency. @see https://api-docs.deepseek.com/api/get-user-balance */
async function fetchBalance(target: ChannelTarget, call: AccountCall): Promise<number> {
  const body = await getAccountJson(call, target, `${target.baseUrl}/user/balance`, bearer(target.key), balances);
  const info = body.balance_infos.find((entry) => entry.currency === 'USD') ?? body.balance_infos[0];
  return info?.total_balance ?? 0;
}

/**
 * DeepSeek speaks OpenAI's API under `/v1`.
 * @see https://api-docs.deepseek.com
 */
export const deepseekProvider = createOpenAICompatibleProvider({ id: 'deepseek', channelTypes: [43], fetchBalance });
