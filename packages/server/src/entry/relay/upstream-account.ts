import { findChannelType, splitChannelKeys } from '@switchboard/contracts';
import type { AccountCall, ChannelTarget, Provider } from './provider.ts';
import { notYetRelayed, providerForChannelType } from './providers/index.ts';
import { AccountCallError } from './transport/account-json.ts';
import { httpTransport } from './transport/http-transport.ts';

export { AccountCallError } from './transport/account-json.ts';

/**
 * The console asked an account question the vendor has no API for: its provider declares no model
 * list, or the type is not relayed at all (`notRelayedReason` then says why). Nothing was sent.
 */
export class AccountQuestionUnanswerable extends Error {
  readonly notRelayedReason: string | undefined;
  constructor(type: number, notRelayedReason: string | undefined) {
    super(notRelayedReason ? `channel type ${type} is not relayed: ${notRelayedReason}` : `channel type ${type} has no model list`);
    this.notRelayedReason = notRelayedReason;
  }
}

const timeoutMs = 15_000;

/** A channel as the console knows it: stored row or unsaved form (base URL may be empty, key may list several). */
export interface ChannelAccount {
  readonly type: number;
  readonly baseUrl: string | null | undefined;
  readonly key: string;
  /** The type-specific extra field (Cloudflare account id, Azure API version, Vertex region, …). */
  readonly other: string | null | undefined;
}

/** The account questions go to the channel's first key, at its base URL or the type's default. */
function targetOf(channel: ChannelAccount): ChannelTarget {
  const baseUrl = (channel.baseUrl?.trim() || findChannelType(channel.type)?.defaultBaseUrl || '').replace(/\/+$/, '');
  if (!baseUrl) throw new AccountCallError('no base URL');
  return { id: 0, type: channel.type, baseUrl, key: splitChannelKeys(channel.key)[0] ?? '', organization: '', other: channel.other ?? '' };
}

/** A provider's own account question goes through its transport (signing vendors sign it too). */
function callOf(provider: Provider | undefined, nowMs: number): AccountCall {
  return { transport: provider?.transport ?? httpTransport, nowMs, timeoutMs };
}

/**
 * The upstream's own model list for a channel (console "fetch models"). Only a provider that
 * declares `listModels` is asked: OpenAI-compatible ones list at `/v1/models`, natives at their own
 * endpoint, and a vendor without a list (iFlytek Spark, Zhipu v3, …) is said to have none rather
 * than sent OpenAI's request it would not understand.
 */
export async function listUpstreamModels(channel: ChannelAccount, nowMs: number): Promise<string[]> {
  const provider = providerForChannelType(channel.type);
  if (!provider?.listModels) throw new AccountQuestionUnanswerable(channel.type, provider ? undefined : notYetRelayed[channel.type]);
  return provider.listModels(targetOf(channel), callOf(provider, nowMs));
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
