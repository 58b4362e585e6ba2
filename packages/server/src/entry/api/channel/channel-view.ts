import type { ChannelView } from '@switchboard/contracts';
import { channelInfoObject } from '../../relay/cache/multi-key-info.ts';
import type { ChannelRow, ChannelRowWithoutKey } from './channel.repository.ts';

/**
 * A channel in the classic wire shape, never with its key, whatever row it is given: the key leaves
 * the server only through the super administrator's logged reveal (`POST /api/channel/:id/key`).
 */
export function toChannelView(row: ChannelRowWithoutKey | ChannelRow): ChannelView {
  return {
    id: row.id,
    type: row.type,
    openai_organization: row.open_ai_organization ?? '',
    test_model: row.test_model ?? '',
    status: row.status,
    name: row.name,
    weight: Number(row.weight),
    created_time: Number(row.created_time),
    test_time: Number(row.test_time),
    response_time: row.response_time,
    base_url: row.base_url ?? '',
    other: row.other ?? '',
    balance: Number(row.balance),
    balance_updated_time: Number(row.balance_updated_time),
    models: row.models ?? '',
    group: row.group,
    used_quota: Number(row.used_quota),
    model_mapping: row.model_mapping ?? '',
    status_code_mapping: row.status_code_mapping ?? '',
    priority: Number(row.priority),
    auto_ban: row.auto_ban,
    other_info: row.other_info ?? '',
    tag: row.tag ?? '',
    setting: row.setting ?? '',
    param_override: row.param_override ?? '',
    header_override: row.header_override ?? '',
    remark: row.remark ?? '',
    channel_info: channelInfoView(row.channel_info),
  };
}

/** new-api answers `channel_info` as an object (its multi-key settings); {} when the channel has none. */
function channelInfoView(value: unknown): Record<string, unknown> {
  return channelInfoObject(value) ?? {};
}
