import { findChannelType, splitChannelKeys } from '@switchboard/contracts';
import type { AccountCall, ChannelTarget, Provider } from './provider.ts';
import { listModelsTheOpenAIWay, providerForChannelType } from './providers/index.ts';
import { AccountCallError } from './transport/account-json.ts';
import { httpTransport } from './transport/http-transport.ts';

export { AccountCallError } from './transport/account-json.ts';

const timeoutMs = 15_000;

/** A channel as the console knows it: stored row or unsaved form (base URL may be empty, key may list several). */
export interface ChannelAccount {
  readonly type: number;
  readonly baseUrl: string | null | undefined;
  readonly key: string;
}

/** The account questions go to the channel's first key, at its base URL or the type's default. */
function targetOf(channel: ChannelAccount): ChannelTarget {
  const baseUrl = (channel.baseUrl?.trim() || findChannelType(channel.type)?.defaultBaseUrl || '').replace(/\/+$/, '');
  if (!baseUrl) throw new AccountCallError('no base URL');
  return { id: 0, type: channel.type, baseUrl, key: splitChannelKeys(channel.key)[0] ?? '', organization: '', other: '' };
}

/** A provider's own account question goes through its transport (signing vendors sign it too). */
function callOf(provider: Provider | undefined, nowMs: number): AccountCall {
  return { transport: provider?.transport ?? httpTransport, nowMs, timeoutMs };
}

/** The upstream's own model list for a channel (console "fetch models"). */
export async function listUpstreamModels(channel: ChannelAccount, nowMs: number): Promise<string[]> {
  const provider = providerForChannelType(channel.type);
  if (provider?.listModels) return provider.listModels(targetOf(channel), callOf(provider, nowMs));
  return listModelsTheOpenAIWay(targetOf(channel), callOf(undefined, nowMs));
}

/** Whether the provider of this channel type exposes a balance. */
export function balanceSupported(type: number): boolean {
  return providerForChannelType(type)?.fetchBalance !== undefined;
}

/** The channel's remaining balance as its provider reports it (US$, or the provider's currency). */
export async function fetchUpstreamBalance(channel: ChannelAccount, nowMs: number): Promise<number> {
  const provider = providerForChannelType(channel.type);
  if (!provider?.fetchBalance) throw new AccountCallError('not supported');
  const balance = await provider.fetchBalance(targetOf(channel), callOf(provider, nowMs));
  if (!Number.isFinite(balance)) throw new AccountCallError('unexpected answer');
  return balance;
}
