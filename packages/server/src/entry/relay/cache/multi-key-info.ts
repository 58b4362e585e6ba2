import { ChannelStatus } from '@switchboard/contracts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';

/**
 * new-api's multi-key settings of a channel (its `channel_info` column): `is_multi_key`,
 * `multi_key_mode` (`random` or `polling`), `multi_key_polling_index` (the next key polling
 * starts from) and `multi_key_status_list` (key index → status; absent means enabled). Keys whose
 * status is not enabled are never used while another key is.
 */
export interface MultiKeyInfo {
  readonly mode: 'random' | 'polling';
  readonly pollingIndex: number;
  readonly disabledKeys: ReadonlySet<number>;
}

/**
 * `channel_info` as an object: new-api declares the column `json`, which PostgreSQL and MySQL drivers
 * hand over already parsed; SQLite (and Switchboard's own `text` column) gives its text.
 */
export function channelInfoObject(value: unknown): Record<string, unknown> | undefined {
  let parsed = value;
  if (typeof value === 'string') {
    if (!value.trim()) return undefined;
    const read = safeParseJson(value);
    if (!read.ok) return undefined;
    parsed = read.value;
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}

/** The channel's multi-key settings; undefined for a channel that is not in multi-key mode (or has no `channel_info`). */
export function readMultiKeyInfo(value: unknown): MultiKeyInfo | undefined {
  const info = channelInfoObject(value);
  if (!info) return undefined;
  if (info.is_multi_key !== true) return undefined;
  const disabledKeys = new Set<number>();
  const statuses = info.multi_key_status_list;
  if (typeof statuses === 'object' && statuses !== null) {
    for (const [index, status] of Object.entries(statuses)) {
      if (Number(status) !== ChannelStatus.enabled && /^\d+$/.test(index)) disabledKeys.add(Number(index));
    }
  }
  const pollingIndex = Number(info.multi_key_polling_index);
  return {
    mode: info.multi_key_mode === 'polling' ? 'polling' : 'random',
    pollingIndex: Number.isSafeInteger(pollingIndex) && pollingIndex > 0 ? pollingIndex : 0,
    disabledKeys,
  };
}
