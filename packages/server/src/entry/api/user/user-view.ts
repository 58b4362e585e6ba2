import type { LoginView, SelfView, UserView } from '@switchboard/contracts';
import { userSettingObject } from '../../../domain/auth/user-setting-object.ts';
import type { UserRow } from './user.repository.ts';

function deletedAtText(value: UserRow['deleted_at']): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  // SQLite keeps the text written by sqlTimestamp: "YYYY-MM-DD HH:MM:SS.sss" in UTC.
  const parsed = new Date(value.includes('T') ? value : `${value.replace(' ', 'T')}Z`);
  return Number.isNaN(parsed.getTime()) ? value : parsed.toISOString();
}

/** The console's view of a user: never the password hash, never the system access token. */
export function toUserView(row: UserRow): UserView {
  return {
    id: row.id,
    username: row.username,
    display_name: row.display_name,
    role: row.role,
    status: row.status,
    email: row.email ?? '',
    github_id: row.github_id ?? '',
    wechat_id: row.wechat_id ?? '',
    telegram_id: row.telegram_id ?? '',
    linux_do_id: row.linux_do_id ?? '',
    quota: Number(row.quota),
    used_quota: Number(row.used_quota),
    request_count: Number(row.request_count),
    group: row.group,
    aff_code: row.aff_code ?? '',
    aff_count: Number(row.aff_count),
    aff_quota: Number(row.aff_quota),
    aff_history_quota: Number(row.aff_history),
    inviter_id: Number(row.inviter_id),
    remark: row.remark ?? '',
    created_at: Number(row.created_at),
    last_login_at: Number(row.last_login_at),
    DeletedAt: deletedAtText(row.deleted_at),
  };
}

/** Settings a user sets but is never shown again (as with a token key, a new value replaces them). */
const secretSettings = ['webhook_secret', 'gotify_token'];

/** The user's own view: with the personal settings, their secrets left out. */
export function toSelfView(row: UserRow): SelfView {
  const setting = userSettingObject(row.setting);
  for (const field of secretSettings) delete setting[field];
  return { ...toUserView(row), setting: Object.keys(setting).length > 0 ? JSON.stringify(setting) : '' };
}

export function toLoginView(row: UserRow): LoginView {
  return { id: row.id, username: row.username, display_name: row.display_name, role: row.role, status: row.status, group: row.group };
}
