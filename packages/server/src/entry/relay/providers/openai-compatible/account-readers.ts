import { z } from 'zod';
import type { AccountCall, ChannelTarget } from '../../provider.ts';
import { getAccountJson } from '../../transport/account-json.ts';

/** Amounts that vendors send as numbers or as decimal strings. */
export const numeric = z.union([z.number(), z.string().transform(Number)]);

export const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

const openAIModelList = z.object({ data: z.array(z.object({ id: z.string() })) });

/** OpenAI's `GET /v1/models`, which every OpenAI-compatible vendor copies. */
export async function listOpenAIModels(target: ChannelTarget, call: AccountCall, headers: Record<string, string> = bearer(target.key)): Promise<string[]> {
  const body = await getAccountJson(call, target, `${target.baseUrl}/v1/models`, headers, openAIModelList);
  return body.data.map((model) => model.id);
}

/** The reseller `dashboard/billing/credit_grants` answer; vendors differ in which field holds the balance. */
export function readCreditGrants(field: 'total_available' | 'total_remaining') {
  const schema = z.object({ [field]: numeric });
  return async (target: ChannelTarget, call: AccountCall): Promise<number> => {
    const body = await getAccountJson(call, target, `${target.baseUrl}/dashboard/billing/credit_grants`, bearer(target.key), schema);
    return body[field] as number;
  };
}
