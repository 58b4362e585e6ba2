import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { DeletedAt, Defaulted, Flag } from './column-types.ts';
import type {
  LogsTable,
  LogHourlyTable,
  LogHourlyChannelGroupTable,
  LogHourlyTypeTable,
  LogHourlyGroupTable,
  LogDailyUserModelTable,
  LogDailyUserTokenTable,
  LogHourlyChannelLatencyTable,
  LogPayloadsTable,
} from './log-schema.ts';

/**
 * Row types of the tables in `table-definitions.ts` (and the migrations' own), for Kysely; the log
 * database's are in `log-schema.ts`, the shared column types in `column-types.ts`.
 */

/** A spending budget per day, week or month and its alert state, on tokens and users (migration 0021). */
export interface BudgetColumns {
  /** Quota units per period; 0 is no budget. */
  budget_quota: Defaulted<number>;
  /** 'day', 'week' or 'month' ('' with no budget). */
  budget_period: Defaulted<string>;
  /** Unix seconds of the start of the period `budget_used_base` belongs to. */
  budget_period_start: Defaulted<number>;
  /** `used_quota` at that start: the period's use is `used_quota - budget_used_base`. */
  budget_used_base: Defaulted<number>;
  /** The last alert level sent (50, 80, 100) and in which period (its start). */
  budget_alert_level: Defaulted<number>;
  budget_alert_period: Defaulted<number>;
}

export interface UsersTable extends BudgetColumns {
  id: Generated<number>;
  username: string;
  password: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  /** Kept for new-api compatibility (its OIDC login); defaults to '' so inserts may leave it out. */
  oidc_id: ColumnType<string, string | undefined, string>;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  access_token: string | null;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string | null;
  aff_count: number;
  aff_quota: number;
  aff_history: number;
  inviter_id: number;
  setting: string | null;
  remark: string;
  created_at: number;
  last_login_at: number;
  deleted_at: DeletedAt;
  /** Unix seconds of the last low-balance alert (migration 0021). */
  quota_alerted_at: Defaulted<number>;
}

export interface TokensTable extends BudgetColumns {
  id: Generated<number>;
  user_id: number;
  key: string;
  status: number;
  name: string;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: Flag;
  model_limits_enabled: Flag;
  model_limits: string | null;
  allow_ips: string | null;
  used_quota: number;
  group: string;
  deleted_at: DeletedAt;
  /** The token's requests per minute, tokens per minute and concurrent requests; 0 = unlimited (migration 0019). */
  rpm_limit: Defaulted<number>;
  tpm_limit: Defaulted<number>;
  concurrency_limit: Defaulted<number>;
  /** Store this token's request and response bodies (migration 0025); 0 on rows written before it. */
  log_payload: ColumnType<boolean | number, number | undefined, number>;
  /** The owner switched the response cache off for this token (migration 0030). */
  response_cache_off: ColumnType<boolean | number, number | undefined, number>;
  /** The token's own model fallbacks, JSON like ModelFallbacks; null or '' = the option's (migration 0030). */
  model_fallbacks: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ChannelsTable {
  id: Generated<number>;
  type: number;
  key: string;
  open_ai_organization: string | null;
  test_model: string | null;
  status: number;
  name: string;
  weight: number;
  created_time: number;
  test_time: number;
  response_time: number;
  base_url: string | null;
  other: string | null;
  balance: number;
  balance_updated_time: number;
  models: string | null;
  group: string;
  used_quota: number;
  model_mapping: string | null;
  status_code_mapping: string | null;
  priority: number;
  auto_ban: number;
  other_info: string | null;
  tag: string | null;
  setting: string | null;
  param_override: string | null;
  header_override: string | null;
  remark: string | null;
  settings: string | null;
  /** new-api's multi-key settings (JSON: is_multi_key, multi_key_mode, multi_key_polling_index, multi_key_status_list). */
  channel_info: string | null;
}

export interface AbilitiesTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: Flag;
  priority: number;
  weight: number;
  tag: string | null;
}

export interface OptionsTable {
  key: string;
  value: string | null;
}

export interface RedemptionsTable {
  id: Generated<number>;
  user_id: number;
  key: string;
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
  used_user_id: number;
  expired_time: number;
  deleted_at: DeletedAt;
}

export interface MidjourneysTable {
  id: Generated<number>;
  code: number;
  user_id: number;
  action: string;
  mj_id: string;
  prompt: string | null;
  prompt_en: string | null;
  description: string | null;
  state: string | null;
  submit_time: number;
  start_time: number;
  finish_time: number;
  image_url: string | null;
  video_url: string | null;
  video_urls: string | null;
  status: string;
  progress: string;
  fail_reason: string | null;
  channel_id: number;
  quota: number;
  buttons: string | null;
  properties: string | null;
  /** Switchboard's own column (0 on rows new-api wrote): the token charged at submit, refunded with the user. */
  token_id: Generated<number>;
}

export interface TasksTable {
  id: Generated<number>;
  created_at: number;
  updated_at: number;
  task_id: string;
  platform: string;
  user_id: number;
  group: string;
  channel_id: number;
  quota: number;
  action: string;
  status: string;
  fail_reason: string | null;
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  properties: string | null;
  private_data: string | null;
  data: string | null;
}

export interface TopUpsTable {
  id: Generated<number>;
  user_id: number;
  amount: number;
  money: number;
  trade_no: string;
  payment_method: string;
  create_time: number;
  complete_time: number;
  status: string;
  /** The quota the order credits (0 on rows made before it, and on new-api's: amount × QuotaPerUnit). */
  quota: Generated<number>;
}

export interface QuotaDataTable {
  id: Generated<number>;
  user_id: number;
  username: string;
  model_name: string;
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
}

export interface SetupsTable {
  id: Generated<number>;
  version: string;
  initialized_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  ip: string;
}

/** Background job progress (migration 0010). */
export interface JobStateTable {
  name: string;
  last_id: number;
  updated_at: number;
}

/** Quota journal watermarks (migration 0016, main and log database). */
export interface QuotaJournalTable {
  name: string;
  quota_seq: number;
  log_seq: number;
  created_at: number;
}

/** TOTP second factor per user (migration 0017); `enabled` 0 is a pending setup. */
export interface TwoFactorTable {
  user_id: number;
  secret: string;
  enabled: Flag;
  last_step: number;
  created_at: number;
  enabled_at: number;
}

/** Hashed single-use backup codes (migration 0017); `used_at` 0 is unused. */
export interface TwoFactorBackupCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: number;
}

/** new-api's prefill groups (migration 0022): `items` is a JSON array as text; `deleted_at` a soft delete. */
export interface PrefillGroupsTable {
  id: Generated<number>;
  name: string;
  type: string;
  items: string | null;
  description: Generated<string>;
  created_time: number;
  updated_time: number;
  deleted_at: DeletedAt;
}

/**
 * new-api's `passkey_credentials` (migration 0026): ids and COSE public keys base64 (standard, padded),
 * GORM datetimes, plus our `name`. Several rows per user.
 */
export interface PasskeyCredentialsTable {
  id: Generated<number>;
  user_id: number;
  credential_id: string;
  public_key: string;
  attestation_type: string | null;
  aaguid: string | null;
  sign_count: Defaulted<number>;
  clone_warning: Flag;
  user_present: Flag;
  user_verified: Flag;
  backup_eligible: Flag;
  backup_state: Flag;
  transports: string | null;
  attachment: string | null;
  last_used_at: DeletedAt;
  created_at: DeletedAt;
  updated_at: DeletedAt;
  deleted_at: DeletedAt;
  name: Defaulted<string>;
}

/** new-api's model catalogue (migration 0027): `endpoints` JSON text, `deleted_at` a soft delete. */
export interface ModelsTable {
  id: Generated<number>;
  model_name: string;
  description: string | null;
  icon: string | null;
  tags: string | null;
  vendor_id: Generated<number>;
  endpoints: string | null;
  context_length: Generated<number>;
  max_output_tokens: Generated<number>;
  knowledge_cutoff: Generated<string | null>;
  release_date: Generated<string | null>;
  parameter_count: Generated<string | null>;
  input_modalities: Generated<string | null>;
  output_modalities: Generated<string | null>;
  status: Generated<number>;
  sync_official: Generated<number>;
  created_time: number;
  updated_time: number;
  name_rule: Generated<number>;
  deleted_at: DeletedAt;
}

/** new-api's vendors of the model catalogue (migration 0027). */
export interface VendorsTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  icon: string | null;
  status: Generated<number>;
  created_time: number;
  updated_time: number;
  deleted_at: DeletedAt;
}

/** `switchboard_move_over` (db/move-over/move-over-tables.ts): the product a database was first opened as. */
export interface MoveOverTable {
  name: string;
  source: string;
  detected_at: Generated<number>;
  report: string | null;
  mapped_at: Generated<number>;
  dismissed_at: Generated<number>;
}

/** `switchboard_one_api_channels`: each one-api channel migration 0024 rewrote, with its old values. */
export interface OneApiChannelsTable {
  channel_id: number;
  one_api_type: number;
  type: number;
  base_url_before: string | null;
  other_before: string | null;
  status_before: Generated<number>;
  mapped_at: Generated<number>;
}

export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
  options: OptionsTable;
  redemptions: RedemptionsTable;
  logs: LogsTable;
  midjourneys: MidjourneysTable;
  tasks: TasksTable;
  top_ups: TopUpsTable;
  quota_data: QuotaDataTable;
  setups: SetupsTable;
  switchboard_sessions: SessionsTable;
  switchboard_job_state: JobStateTable;
  switchboard_log_hourly: LogHourlyTable;
  switchboard_log_hourly_channel_group: LogHourlyChannelGroupTable;
  switchboard_log_hourly_type: LogHourlyTypeTable;
  switchboard_log_hourly_group: LogHourlyGroupTable;
  switchboard_log_daily_user_token: LogDailyUserTokenTable;
  switchboard_log_daily_user_model: LogDailyUserModelTable;
  switchboard_log_hourly_channel_latency: LogHourlyChannelLatencyTable;
  switchboard_log_hourly_channel_latency_ms: LogHourlyChannelLatencyTable;
  switchboard_quota_journal: QuotaJournalTable;
  switchboard_two_factor: TwoFactorTable;
  switchboard_two_factor_backup_codes: TwoFactorBackupCodesTable;
  prefill_groups: PrefillGroupsTable;
  models: ModelsTable;
  vendors: VendorsTable;
  switchboard_move_over: MoveOverTable;
  switchboard_one_api_channels: OneApiChannelsTable;
  passkey_credentials: PasskeyCredentialsTable;
  switchboard_log_payloads: LogPayloadsTable;
}

/*
 * Rows as services and views handle them: read (`…Row`), written whole (`New…`) and patched
 * (`…Update`). Only repositories and db/ import Kysely itself (lint-enforced).
 */
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type TokenRow = Selectable<TokensTable>;
export type NewToken = Insertable<TokensTable>;
export type TokenUpdate = Updateable<TokensTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type NewChannel = Insertable<ChannelsTable>;
export type ChannelUpdate = Updateable<ChannelsTable>;
export type NewAbility = Insertable<AbilitiesTable>;
export type RedemptionRow = Selectable<RedemptionsTable>;
export type NewRedemption = Insertable<RedemptionsTable>;
export type RedemptionUpdate = Updateable<RedemptionsTable>;
export type MidjourneyRow = Selectable<MidjourneysTable>;
export type TaskRow = Selectable<TasksTable>;
export type TopUpRow = Selectable<TopUpsTable>;
export type PrefillGroupRow = Selectable<PrefillGroupsTable>;
