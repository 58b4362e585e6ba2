import type { AdminLogView, SelfLogView } from '@switchboard/contracts';
import { toBoolean } from '../../../core/db/dialect.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { LogRow } from './log.repository.ts';

/** A log row for administrators: the channel (as `channel`, with its name) and every detail. */
export function toAdminLogView(row: LogRow, channelNames: ReadonlyMap<number, string>): AdminLogView {
  return { ...toSelfLogView(row), channel: Number(row.channel_id), channel_name: channelNames.get(Number(row.channel_id)) ?? '', other: row.other ?? '' };
}

/** `other.admin_info` (channels tried, key index) is for administrators only. */
function withoutAdminInfo(other: string | null): string {
  if (!other) return '';
  const parsed = safeParseJson(other);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return other;
  const { admin_info: _adminInfo, ...rest } = parsed.value as Record<string, unknown>;
  return JSON.stringify(rest);
}

/** A log row for its own user: no channel, no administrator details. */
export function toSelfLogView(row: LogRow): SelfLogView {
  return {
    id: row.id,
    user_id: row.user_id,
    created_at: Number(row.created_at),
    type: row.type,
    content: row.content ?? '',
    username: row.username,
    token_name: row.token_name,
    model_name: row.model_name,
    quota: Number(row.quota),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    use_time: row.use_time,
    is_stream: toBoolean(row.is_stream),
    token_id: Number(row.token_id),
    group: row.group,
    ip: row.ip,
    request_id: row.request_id,
    other: withoutAdminInfo(row.other),
  };
}
