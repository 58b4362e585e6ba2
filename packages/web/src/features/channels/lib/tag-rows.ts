import { ChannelStatus, type ChannelView } from '@switchboard/contracts';
import { splitList } from './channel-form.ts';

/** A table row: a channel, or in tag mode a tag aggregating its channels as children. */
export type ChannelRow = (ChannelView & { kind: 'channel'; rowKey: string; children?: undefined }) | TagRow;

export interface TagRow {
  kind: 'tag';
  rowKey: string;
  tag: string;
  channels: ChannelView[];
  children: ChannelRow[];
  group: string;
  models: string;
  enabledCount: number;
  used_quota: number;
  priority: number;
  weight: number;
}

function asRow(channel: ChannelView): ChannelRow {
  return { ...channel, kind: 'channel', rowKey: `channel-${channel.id}` };
}

/** Groups tagged channels under one row per tag, in first-seen order; untagged channels stay as they are. */
export function buildRows(channels: ChannelView[], tagMode: boolean): ChannelRow[] {
  if (!tagMode) return channels.map(asRow);
  const rows: ChannelRow[] = [];
  const tags = new Map<string, TagRow>();
  for (const channel of channels) {
    const tag = channel.tag ?? '';
    if (!tag) {
      rows.push(asRow(channel));
      continue;
    }
    let row = tags.get(tag);
    if (!row) {
      row = {
        kind: 'tag',
        rowKey: `tag-${tag}`,
        tag,
        channels: [],
        children: [],
        group: '',
        models: '',
        enabledCount: 0,
        used_quota: 0,
        priority: channel.priority,
        weight: channel.weight,
      };
      tags.set(tag, row);
      rows.push(row);
    }
    row.channels.push(channel);
    row.children.push(asRow(channel));
    row.used_quota += channel.used_quota;
    if (channel.status === ChannelStatus.enabled) row.enabledCount += 1;
  }
  for (const row of tags.values()) {
    row.group = [...new Set(row.channels.flatMap((channel) => splitList(channel.group)))].join(',');
    row.models = [...new Set(row.channels.flatMap((channel) => splitList(channel.models)))].join(',');
  }
  return rows;
}
