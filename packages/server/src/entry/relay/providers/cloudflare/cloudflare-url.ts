import type { ChannelTarget } from '../../provider.ts';

/**
 * Workers AI lives under the account: `{base}/client/v4/accounts/{account_id}/ai/…`, the account id
 * taken from the channel's extra field (`other`), as new-api reads it.
 * @see https://developers.cloudflare.com/workers-ai/configuration/open-ai-compatibility/
 */
export function cloudflareAccountUrl(target: ChannelTarget): string {
  return `${target.baseUrl}/client/v4/accounts/${encodeURIComponent(target.other.trim())}/ai`;
}

/** The OpenAI-compatible endpoint for a caller path: `/v1/chat/completions` → `…/ai/v1/chat/completions`. */
export function cloudflareOpenAIUrl(path: string, target: ChannelTarget): string {
  return `${cloudflareAccountUrl(target)}${path}`;
}
