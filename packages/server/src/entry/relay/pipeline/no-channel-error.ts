import { ChannelStatus } from '@switchboard/contracts';
import type { ChannelCache, ChannelRecord } from '../cache/channel-cache.ts';
import { notYetRelayed } from '../providers/index.ts';
import { relayMessages } from '../relay.messages.ts';
import type { RelayCaller } from './caller-auth.ts';
import { RelayError } from '../../../core/http/relay-error.ts';

/** Why an enabled channel that would serve the request is never selected, when its type is not relayed. */
function notRelayedReason(channel: ChannelRecord | undefined): string | undefined {
  if (!channel || channel.provider || channel.status !== ChannelStatus.enabled) return undefined;
  return notYetRelayed[channel.type];
}

/**
 * The answer when no channel could be tried. A model that only channels of a not-relayed type list
 * (a PaLM2 channel migrated from new-api) would otherwise look merely unconfigured: the caller is
 * told the registry's reason instead. Runs on the error path only, so it may scan every channel.
 */
export function noChannelError(channels: ChannelCache, caller: RelayCaller, model: string): RelayError {
  const params = { model, group: caller.usingGroup };
  const candidates =
    caller.pinnedChannelId === undefined
      ? channels.all().filter((channel) => channel.groups.includes(caller.usingGroup) && channel.models.includes(model))
      : [channels.get(caller.pinnedChannelId)];
  const reasons = [...new Set(candidates.map(notRelayedReason).filter((reason) => reason !== undefined))];
  if (reasons.length > 0) return new RelayError(503, 'model_not_found', relayMessages.noRelayedChannel, { params: { ...params, reason: reasons.join('; ') } });
  return new RelayError(503, 'model_not_found', relayMessages.noChannel, { params });
}
