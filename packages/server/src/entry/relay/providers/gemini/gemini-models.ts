import { z } from 'zod';
import type { AccountCall, ChannelTarget } from '../../provider.ts';
import { getAccountJson } from '../../transport/account-json.ts';

const modelList = z.object({ models: z.array(z.object({ name: z.string() })) });

/** Model names without their `models/` prefix. @see https://ai.google.dev/api/models#method:-models.list */
export async function listGeminiModels(target: ChannelTarget, call: AccountCall): Promise<string[]> {
  const body = await getAccountJson(call, target, `${target.baseUrl}/v1beta/models`, { 'x-goog-api-key': target.key }, modelList);
  return body.models.map((model) => model.name.replace(/^models\//, ''));
}
