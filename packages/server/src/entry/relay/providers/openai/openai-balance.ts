import { z } from 'zod';
import type { AccountCall, ChannelTarget } from '../../provider.ts';
import { getAccountJson } from '../../transport/account-json.ts';
import { bearer, numeric } from '../openai-compatible/account-readers.ts';

const dayMs = 86_400_000;
const subscription = z.object({ hard_limit_usd: numeric });
const usage = z.object({ total_usage: numeric });

/** `YYYY-MM-DD` in UTC, as the billing endpoints take dates. */
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * OpenAI's legacy billing pair, as new-api reads it: the hard limit minus the usage of the last 100
 * days (usage is reported in cents). Custom channels that proxy OpenAI answer the same pair.
 */
export async function readOpenAIBillingBalance(target: ChannelTarget, call: AccountCall): Promise<number> {
  const limit = await getAccountJson(call, target, `${target.baseUrl}/v1/dashboard/billing/subscription`, bearer(target.key), subscription);
  const end = call.nowMs + dayMs;
  const start = end - 100 * dayMs;
  const spent = await getAccountJson(
    call,
    target,
    `${target.baseUrl}/v1/dashboard/billing/usage?start_date=${day(start)}&end_date=${day(end)}`,
    bearer(target.key),
    usage,
  );
  return limit.hard_limit_usd - spent.total_usage / 100;
}
