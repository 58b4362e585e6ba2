import type { FastifyRequest } from 'fastify';
import { ChannelStatus } from '@switchboard/contracts';
import type { ChannelRecord, PriorityTier } from '../relay/cache/channel-cache.ts';
import { authenticateToken, type RelayCaller } from '../relay/pipeline/caller-auth.ts';
import { selectChannel } from '../relay/pipeline/channel-selector.ts';
import { readRelayKey } from '../relay/pipeline/relay-key.ts';
import type { RelayServices } from '../relay/relay-services.ts';

/**
 * Authenticates a task caller with the relay's own key rules (token status, quota, IP allow-list,
 * group, channel pin). midjourney-proxy clients send their key as `mj-api-secret`; every other
 * client as `Authorization` (Bearer or bare), which wins when both are present.
 */
export function authenticateTaskCaller(services: RelayServices, request: FastifyRequest): Promise<RelayCaller> {
  const headers = request.headers;
  const secret = headers['mj-api-secret'];
  const authorization = headers.authorization || (Array.isArray(secret) ? secret[0] : secret) || '';
  const key = readRelayKey({ authorization }, request.url.split('?')[0] ?? '', {});
  return authenticateToken(key, request.ip, {
    tokens: services.tokens,
    keyGuesses: services.keyGuesses,
    users: services.users,
    options: services.options,
    nowSeconds: services.clock.unixSeconds(),
  });
}

export type TaskChannelChoice = { ok: true; channel: ChannelRecord } | { ok: false; reason: 'model_not_allowed' | 'no_channel' | 'wrong_type' };

/**
 * The channel for a task model, with the OpenAI relay's selection (priority tiers, weighted random)
 * over the channels of the allowed types only. A pinned channel (`sk-KEY-17`, administrators) must be
 * enabled and of an allowed type. `wrong_type` says channels exist for the model but none of an
 * allowed type (a Plus-only action and only plain Midjourney Proxy channels).
 */
export function chooseTaskChannel(services: RelayServices, caller: RelayCaller, model: string, allowedTypes: ReadonlySet<number>): TaskChannelChoice {
  const limits = caller.token?.modelLimits;
  if (limits && !limits.has(model)) return { ok: false, reason: 'model_not_allowed' };
  if (caller.pinnedChannelId !== undefined) {
    const pinned = services.channels.get(caller.pinnedChannelId);
    if (!pinned || pinned.status !== ChannelStatus.enabled) return { ok: false, reason: 'no_channel' };
    return allowedTypes.has(pinned.type) ? { ok: true, channel: pinned } : { ok: false, reason: 'wrong_type' };
  }
  const tiers = services.channels.tiers(caller.usingGroup, model);
  const allowed: PriorityTier[] = tiers
    .map((tier) => ({ priority: tier.priority, channels: tier.channels.filter((entry) => allowedTypes.has(entry.channel.type)) }))
    .filter((tier) => tier.channels.length > 0);
  const channel = selectChannel(allowed, 0, new Set(), services.random);
  if (channel) return { ok: true, channel };
  return { ok: false, reason: tiers.length > 0 ? 'wrong_type' : 'no_channel' };
}
