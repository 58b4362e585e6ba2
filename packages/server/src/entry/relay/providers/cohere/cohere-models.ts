import { z } from 'zod';
import type { AccountCall, ChannelTarget } from '../../provider.ts';
import { getAccountJson } from '../../transport/account-json.ts';

const modelList = z.object({ models: z.array(z.looseObject({ name: z.string(), endpoints: z.array(z.string()).nullish() })) });

/** The chat and rerank models of the account (the relay serves only those two endpoints). @see https://docs.cohere.com/reference/list-models */
export async function listCohereModels(target: ChannelTarget, call: AccountCall): Promise<string[]> {
  const headers = { authorization: `Bearer ${target.key}` };
  const { models } = await getAccountJson(call, target, `${target.baseUrl}/v1/models?page_size=1000`, headers, modelList);
  return models
    .filter((model) => !model.endpoints || model.endpoints.some((endpoint) => endpoint === 'chat' || endpoint === 'rerank'))
    .map((model) => model.name);
}
