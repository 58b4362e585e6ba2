import { request } from 'undici';
import { z } from 'zod';
import { findChannelType, splitChannelKeys } from '@switchboard/contracts';
import { safeParseJson } from '../../platform/safe-json.ts';

const timeoutMs = 15_000;

/** A failed upstream call; the message is safe to show (it never contains the key). */
export class UpstreamCallError extends Error {}

async function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  let response;
  try {
    response = await request(url, { method: 'GET', headers, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  } catch (error) {
    throw new UpstreamCallError(error instanceof Error ? error.message : String(error));
  }
  const text = await response.body.text();
  if (response.statusCode < 200 || response.statusCode >= 300) throw new UpstreamCallError(`HTTP ${response.statusCode}`);
  const parsed = safeParseJson(text);
  if (!parsed.ok) throw new UpstreamCallError('the answer is not JSON');
  return parsed.value;
}

function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UpstreamCallError('unexpected answer');
  return parsed.data;
}

export function baseUrlOf(type: number, baseUrl: string | null | undefined): string {
  const url = baseUrl?.trim() || findChannelType(type)?.defaultBaseUrl || '';
  return url.replace(/\/+$/, '');
}

const openAiModels = z.object({ data: z.array(z.object({ id: z.string() })) });
const geminiModels = z.object({ models: z.array(z.object({ name: z.string() })) });
const ollamaModels = z.object({ models: z.array(z.object({ name: z.string() })) });

/** The upstream's own model list (`/v1/models`, or the vendor's equivalent) for a channel's key. */
export async function fetchUpstreamModels(target: { type: number; baseUrl: string | null | undefined; key: string }): Promise<string[]> {
  const base = baseUrlOf(target.type, target.baseUrl);
  if (!base) throw new UpstreamCallError('no base URL');
  const key = splitChannelKeys(target.key)[0] ?? '';
  if (target.type === 24) {
    const body = parseWith(geminiModels, await getJson(`${base}/v1beta/models`, { 'x-goog-api-key': key }));
    return body.models.map((model) => model.name.replace(/^models\//, ''));
  }
  if (target.type === 4) {
    return parseWith(ollamaModels, await getJson(`${base}/api/tags`, key ? { authorization: `Bearer ${key}` } : {})).models.map((model) => model.name);
  }
  if (target.type === 14) {
    return parseWith(openAiModels, await getJson(`${base}/v1/models`, { 'x-api-key': key, 'anthropic-version': '2023-06-01' })).data.map((model) => model.id);
  }
  return parseWith(openAiModels, await getJson(`${base}/v1/models`, { authorization: `Bearer ${key}` })).data.map((model) => model.id);
}

const numeric = z.union([z.number(), z.string().transform(Number)]);

/** Reads a provider's balance; `nowMs` bounds the usage window of providers that report usage. */
type BalanceReader = (base: string, key: string, nowMs: number) => Promise<number>;

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** OpenAI's legacy billing pair: the hard limit minus the last 100 days of usage (reported in cents). */
const readOpenAiBalance: BalanceReader = async (base, key, nowMs) => {
  const subscription = parseWith(z.object({ hard_limit_usd: numeric }), await getJson(`${base}/v1/dashboard/billing/subscription`, bearer(key)));
  const day = (date: Date) => date.toISOString().slice(0, 10);
  const end = new Date(nowMs + 86_400_000);
  const start = new Date(end.getTime() - 100 * 86_400_000);
  const usage = parseWith(z.object({ total_usage: numeric }), await getJson(`${base}/v1/dashboard/billing/usage?start_date=${day(start)}&end_date=${day(end)}`, bearer(key)));
  return subscription.hard_limit_usd - usage.total_usage / 100;
};

const readCreditGrants = (field: 'total_available' | 'total_remaining'): BalanceReader => async (base, key) =>
  parseWith(z.object({ [field]: numeric }), await getJson(`${base}/dashboard/billing/credit_grants`, bearer(key)))[field] as number;

const balanceReaders: Record<number, BalanceReader> = {
  1: readOpenAiBalance,
  8: readOpenAiBalance,
  12: readCreditGrants('total_remaining'),
  13: readCreditGrants('total_available'),
  20: async (base, key) => {
    const body = parseWith(z.object({ data: z.object({ total_credits: numeric, total_usage: numeric }) }), await getJson(`${base}/api/v1/credits`, bearer(key)));
    return body.data.total_credits - body.data.total_usage;
  },
  25: async (base, key) => parseWith(z.object({ data: z.object({ available_balance: numeric }) }), await getJson(`${base}/v1/users/me/balance`, bearer(key))).data.available_balance,
  40: async (base, key) => parseWith(z.object({ data: z.object({ totalBalance: numeric }) }), await getJson(`${base}/v1/user/info`, bearer(key))).data.totalBalance,
  43: async (base, key) => {
    const body = parseWith(z.object({ balance_infos: z.array(z.object({ currency: z.string(), total_balance: numeric })) }), await getJson(`${base}/user/balance`, bearer(key)));
    const info = body.balance_infos.find((entry) => entry.currency === 'USD') ?? body.balance_infos[0];
    return info?.total_balance ?? 0;
  },
};

/** Whether the provider of this channel type exposes a balance we can read. */
export function supportsBalance(type: number): boolean {
  return type in balanceReaders;
}

/** The channel's remaining balance as the provider reports it (US$, or the provider's currency). */
export async function fetchUpstreamBalance(target: { type: number; baseUrl: string | null | undefined; key: string }, nowMs: number): Promise<number> {
  const reader = balanceReaders[target.type];
  if (!reader) throw new UpstreamCallError('not supported');
  const base = baseUrlOf(target.type, target.baseUrl);
  if (!base) throw new UpstreamCallError('no base URL');
  const balance = await reader(base, splitChannelKeys(target.key)[0] ?? '', nowMs);
  if (!Number.isFinite(balance)) throw new UpstreamCallError('unexpected answer');
  return balance;
}
