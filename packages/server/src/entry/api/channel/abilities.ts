import { ChannelStatus } from '@switchboard/contracts';
import { fromBoolean } from '../../../core/db/dialect.ts';
import type { ChannelRow, NewAbility } from '../../../core/db/schema.ts';

/** Comma-separated lists (channel models and groups): trimmed, without empties or repeats, in order. */
export function splitCommaList(text: string | null | undefined): string[] {
  if (!text) return [];
  return [
    ...new Set(
      text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ];
}

type ChannelForAbilities = Pick<ChannelRow, 'id' | 'group' | 'models' | 'status' | 'priority' | 'weight' | 'tag'>;

/**
 * One routing row per (group, model) of the channel: what the relay's channel selection reads.
 * ChannelRepository.rebuildAbilities writes them.
 */
export function abilityRowsOf(channel: ChannelForAbilities): NewAbility[] {
  const rows: NewAbility[] = [];
  for (const group of splitCommaList(channel.group)) {
    for (const model of splitCommaList(channel.models)) {
      rows.push({
        group,
        model,
        channel_id: channel.id,
        enabled: fromBoolean(channel.status === ChannelStatus.enabled),
        priority: Number(channel.priority ?? 0),
        weight: Math.max(0, Number(channel.weight ?? 0)),
        tag: channel.tag ?? null,
      });
    }
  }
  return rows;
}
