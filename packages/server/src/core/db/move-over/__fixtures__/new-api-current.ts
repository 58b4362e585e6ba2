import type { GormField, GormModel } from './gorm-ddl.ts';
import {
  bool,
  classicAbilities,
  classicChannels,
  classicLogs,
  classicMidjourneys,
  classicQuotaData,
  classicRedemptions,
  classicTasks,
  classicTopUps,
  classicTokens,
  classicUsers,
  deletedAt,
  id,
  int,
  int64,
  options,
  setups,
  string,
} from './new-api-classic.ts';

/**
 * new-api CURRENT (QuantumNous/new-api 823e263, 2026-08): CLASSIC's tables with the columns added
 * since, changed types where a hand migration changed them
 * (tokens.model_limits to text, tokens.key to varchar(128)), and a few of the new tables Switchboard
 * does not use, which must be left exactly as they are.
 */
function withFields(model: GormModel, replaced: Readonly<Record<string, Partial<GormField>>>, added: readonly GormField[] = []): GormModel {
  return {
    ...model,
    fields: [...model.fields.map((field) => (replaced[field.column] ? { ...field, ...replaced[field.column] } : field)), ...added],
  };
}

const users = withFields(classicUsers, {}, [
  string('discord_id', { index: true }),
  string('remark', { type: 'varchar(255)' }),
  string('stripe_customer', { type: 'varchar(64)', index: true }),
  int64('created_at', { type: 'bigint' }),
  int64('last_login_at', { type: 'bigint' }),
  int64('auth_version', { type: 'bigint', default: '1' }),
  // Not in any release we know: a newer new-api's column, to be left alone and reported.
  string('next_release_column', { type: 'varchar(32)', default: "''" }),
]);

const tokens = withFields(classicTokens, { key: { type: 'varchar(128)' }, model_limits: { type: 'text', default: undefined } }, [
  bool('cross_group_retry', { default: 'false' }),
  string('auto_groups', { type: 'text' }),
]);

const channels = withFields(classicChannels, {}, [
  string('header_override', { type: 'text' }),
  string('remark', { type: 'varchar(255)' }),
  string('channel_info', { type: 'json' }),
  string('settings'),
]);

const redemptions = withFields(classicRedemptions, {}, [int64('expired_time')]);

const logs: GormModel = {
  ...withFields(classicLogs, { user_id: { index: true } }, [
    string('request_id', { type: 'varchar(64)', index: true }),
    string('upstream_request_id', { type: 'varchar(128)', index: true }),
  ]),
  indexes: [...(classicLogs.indexes ?? []), { name: 'idx_user_id_id', columns: ['user_id', 'id'] }],
};

const midjourneys = withFields(classicMidjourneys, {}, [string('video_url'), string('video_urls')]);

const tasks = withFields(classicTasks, { task_id: { type: 'varchar(191)' } }, [string('group', { type: 'varchar(50)' }), string('private_data', { type: 'json' })]);

const topUps = withFields(classicTopUps, { trade_no: { type: 'varchar(255)', uniqueIndex: true } }, [
  string('payment_method', { type: 'varchar(50)' }),
  string('payment_provider', { type: 'varchar(50)' }),
  int64('complete_time'),
]);

const quotaData = withFields(classicQuotaData, {}, [
  string('use_group', { size: 64, default: "''" }),
  int('token_id', { default: '0' }),
  int('channel_id', { default: '0' }),
  string('node_name', { size: 64, default: "''" }),
]);

/** The model catalogue (Switchboard's since migration 0027, which adopts it in place). */
const models: GormModel = {
  table: 'models',
  fields: [
    id,
    string('model_name', { type: 'varchar(128)', notNull: true, uniqueIndex: true }),
    string('description', { type: 'text' }),
    string('icon', { type: 'varchar(128)' }),
    string('tags', { type: 'varchar(255)' }),
    int('vendor_id', { index: true }),
    string('endpoints', { type: 'text' }),
    int('status', { default: '1' }),
    int('sync_official', { default: '1' }),
    int64('created_time', { type: 'bigint' }),
    int64('updated_time', { type: 'bigint' }),
    int('name_rule', { default: '0' }),
    deletedAt,
  ],
};

/** new-api's vendors of the model catalogue, its unique index spanning the soft delete as GORM made it. */
const vendors: GormModel = {
  table: 'vendors',
  fields: [
    id,
    string('name', { type: 'varchar(128)', notNull: true }),
    string('description', { type: 'text' }),
    string('icon', { type: 'varchar(128)' }),
    int('status', { default: '1' }),
    int64('created_time', { type: 'bigint' }),
    int64('updated_time', { type: 'bigint' }),
    deletedAt,
  ],
  indexes: [{ name: 'uk_vendor_name_delete_at', columns: ['name', 'deleted_at'], unique: true }],
};

const userSessions: GormModel = {
  table: 'user_sessions',
  fields: [
    string('sid', { type: 'varchar(64)', primaryKey: true }),
    int('user_id', { index: true }),
    string('refresh_hash', { type: 'varchar(128)' }),
    string('login_method', { type: 'varchar(32)' }),
    string('ip', { type: 'varchar(64)' }),
    string('user_agent', { type: 'varchar(512)' }),
    int64('created_at', { type: 'bigint' }),
    int64('expires_at', { type: 'bigint', index: true }),
    int64('revoked_at', { type: 'bigint', default: '0' }),
  ],
};

const checkins: GormModel = {
  table: 'checkins',
  fields: [id, int('user_id', { notNull: true }), string('checkin_date', { type: 'varchar(10)', notNull: true }), int('quota_awarded'), int64('created_at', { type: 'bigint' })],
  indexes: [{ name: 'idx_user_checkin_date', columns: ['user_id', 'checkin_date'], unique: true }],
};

/** A table of a new-api release newer than any we know. */
const nextRelease: GormModel = { table: 'next_release_feature', fields: [id, string('payload', { type: 'text' })] };

export const newApiCurrentModels: readonly GormModel[] = [
  channels,
  tokens,
  users,
  options,
  redemptions,
  classicAbilities,
  logs,
  midjourneys,
  topUps,
  quotaData,
  tasks,
  setups,
  models,
  vendors,
  userSessions,
  checkins,
  nextRelease,
];
