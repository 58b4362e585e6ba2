/**
 * Log rows keep new-api's Chinese text in `content` (new-api's console and existing clients read it),
 * and name the same message in `other` (`content_key`, `content_params`) so Switchboard's console can
 * show it in its reader's language (`web/src/locales/<lang>/logs.json`, `contents.<key>`). A param
 * named `quota` is an amount in quota units, shown in the site's quota display.
 */
export const logContentKeys = [
  'log.redeem',
  'log.online_topup',
  'log.register_gift',
  'log.invitee_gift',
  'log.inviter_gift',
  'log.affiliate_transfer',
  'log.admin_add_quota',
  'log.admin_subtract_quota',
  'log.password_reset_by_email',
  'log.two_factor_locked',
  'log.two_factor_setup_started',
  'log.two_factor_enabled',
  'log.two_factor_disabled',
  'log.two_factor_backup_codes_regenerated',
  'log.two_factor_backup_code_used',
  'log.two_factor_reset_by_admin',
  'log.passkey_registered',
  'log.passkeys_removed',
  'log.passkey_removed',
  'log.passkeys_reset_by_admin',
  'log.task_refund',
  'log.drawing_refund',
  'log.task_submitted',
  'log.drawing_submitted',
  'log.drawing_submitted_without_id',
  'log.channel_key_viewed',
  'log.channels_created',
  'log.channel_copied',
  'log.channel_updated',
  'log.channel_updated_with_key',
  'log.channels_deleted',
  'log.disabled_channels_deleted',
  'log.channels_tagged',
  'log.channel_abilities_repaired',
  'log.tag_channels_edited',
  'log.tag_channels_enabled',
  'log.tag_channels_disabled',
] as const;

export type LogContentKey = (typeof logContentKeys)[number];

export type LogContentParams = Readonly<Record<string, string | number>>;

/** The key and params as they go into a row's `other` object. */
export function logContentFields(key: LogContentKey, params: LogContentParams = {}): { content_key: LogContentKey; content_params: LogContentParams } {
  return { content_key: key, content_params: params };
}

/** A row's text in new-api's Chinese and the message that says the same in the reader's language. */
export interface KeyedLogNote {
  readonly text: string;
  readonly key: LogContentKey;
  readonly params: LogContentParams;
}

/** `content` and `other` of a row that has no other `other` fields. */
export function keyedLogContent(content: string, key: LogContentKey, params: LogContentParams = {}): { content: string; other: string } {
  return { content, other: JSON.stringify(logContentFields(key, params)) };
}
