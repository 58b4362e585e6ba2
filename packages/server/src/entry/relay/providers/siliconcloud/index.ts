import { z } from 'zod';
import type { AccountCall, ChannelTarget } from '../../provider.ts';
import { getAccountJson } from '../../transport/account-json.ts';
import { bearer, numeric } from '../openai-compatible/account-readers.ts';
import { createOpenAICompatibleProvider } from '../openai-compatible/create-openai-compatible-provider.ts';

const userInfo = z.object({ data: z.object({ totalBalance: numeric }) });

/** @see https://docs.siliconflow.cn/cn/api-reference/userinfo/get-user-info */
async function fetchBalance(target: ChannelTarget, call: AccountCall): Promise<number> {
  return (await getAccountJson(call, target, `${target.baseUrl}/v1/user/info`, bearer(target.key), userInfo)).data.totalBalance;
}

/**
 * SiliconCloud (SiliconFlow) speaks OpenAI's API under `/v1`.
 * @see https://docs.siliconflow.cn/cn/api-reference/chat-completions/chat-completions
 */
export const siliconcloudProvider = createOpenAICompatibleProvider({ id: 'siliconcloud', channelTypes: [40], fetchBalance });
