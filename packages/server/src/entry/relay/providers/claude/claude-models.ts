import { z } from 'zod';
import type { AccountCall, ChannelTarget } from '../../provider.ts';
import { getAccountJson } from '../../transport/account-json.ts';
import { defaultAnthropicVersion } from './claude-api.ts';

const modelList = z.object({ data: z.array(z.object({ id: z.string() })) });

/** @see https://docs.anthropic.com/en/api/models-list */
export async function listClaudeModels(target: ChannelTarget, call: AccountCall): Promise<string[]> {
  const headers = { 'x-api-key': target.key, 'anthropic-version': defaultAnthropicVersion };
  return (await getAccountJson(call, target, `${target.baseUrl}/v1/models`, headers, modelList)).data.map((model) => model.id);
}
