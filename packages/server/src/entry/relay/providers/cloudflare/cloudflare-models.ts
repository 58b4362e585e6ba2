import type { AccountCall, ChannelTarget } from '../../provider.ts';
import { bearer } from '../openai-compatible/account-readers.ts';
import { AccountCallError, getAccountJson } from '../../transport/account-json.ts';
import { cloudflareModelSearchSchema } from './cloudflare-api.ts';
import { cloudflareAccountUrl } from './cloudflare-url.ts';

const pageSize = 100;
/** The catalogue holds about a hundred models; the bound only stops a misbehaving server. */
const maxPages = 20;

/**
 * The account's Workers AI catalogue, page by page (`GET …/ai/models/search`). Without the account
 * id (the channel's extra field) there is no account to ask.
 * @see https://developers.cloudflare.com/api/resources/ai/subresources/models/methods/list/
 */
export async function listCloudflareModels(target: ChannelTarget, call: AccountCall): Promise<string[]> {
  if (!target.other.trim()) throw new AccountCallError('the Cloudflare account id (the channel extra field) is needed to list its models');
  const names: string[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const url = `${cloudflareAccountUrl(target)}/models/search?per_page=${pageSize}&page=${page}`;
    const body = await getAccountJson(call, target, url, bearer(target.key), cloudflareModelSearchSchema);
    names.push(...body.result.map((model) => model.name));
    const total = body.result_info?.total_count ?? names.length;
    if (body.result.length < pageSize || names.length >= total) break;
  }
  return names;
}
