import type { GormModel } from './gorm-ddl.ts';
import { bool, id, int, int64, options, string } from './new-api-classic.ts';

/**
 * one-api (songquanpeng/one-api 8df4a26, 2025-02-21): its seven tables as AutoMigrate creates them.
 * No soft delete (a deleted user is status 3, renamed `deleted_<uuid>`), `models`/`subnet` on tokens,
 * `config` JSON on channels, and channel type numbers that mean other vendors from 26 on (and 2, 4, 5).
 */
const users: GormModel = {
  table: 'users',
  fields: [
    id,
    string('username', { unique: true, index: true }),
    string('password', { notNull: true }),
    string('display_name', { index: true }),
    int('role', { type: 'int', default: '1' }),
    int('status', { type: 'int', default: '1' }),
    string('email', { index: true }),
    string('github_id', { index: true }),
    string('wechat_id', { index: true }),
    string('lark_id', { index: true }),
    string('oidc_id', { index: true }),
    string('access_token', { type: 'char(32)', uniqueIndex: true }),
    int64('quota', { default: '0' }),
    int64('used_quota', { default: '0' }),
    int('request_count', { type: 'int', default: '0' }),
    string('group', { type: 'varchar(32)', default: "'default'" }),
    string('aff_code', { type: 'varchar(32)', uniqueIndex: true }),
    int('inviter_id', { type: 'int', index: true }),
  ],
};

const tokens: GormModel = {
  table: 'tokens',
  fields: [
    id,
    int('user_id'),
    string('key', { type: 'char(48)', uniqueIndex: true }),
    int('status', { default: '1' }),
    string('name', { index: true }),
    int64('created_time'),
    int64('accessed_time'),
    int64('expired_time', { default: '-1' }),
    int64('remain_quota', { default: '0' }),
    bool('unlimited_quota', { default: 'false' }),
    int64('used_quota', { default: '0' }),
    string('models', { type: 'text' }),
    string('subnet', { default: "''" }),
  ],
};

const channels: GormModel = {
  table: 'channels',
  fields: [
    id,
    int('type', { default: '0' }),
    string('key', { type: 'text' }),
    int('status', { default: '1' }),
    string('name', { index: true }),
    { column: 'weight', go: 'uint', default: '0' },
    int64('created_time'),
    int64('test_time'),
    int('response_time'),
    string('base_url', { default: "''" }),
    string('other'),
    { column: 'balance', go: 'float64' },
    int64('balance_updated_time'),
    string('models'),
    string('group', { type: 'varchar(32)', default: "'default'" }),
    int64('used_quota', { default: '0' }),
    string('model_mapping', { type: 'varchar(1024)', default: "''" }),
    int64('priority', { default: '0' }),
    string('config'),
    string('system_prompt', { type: 'text' }),
  ],
};

const abilities: GormModel = {
  table: 'abilities',
  fields: [
    string('group', { type: 'varchar(32)', primaryKey: true }),
    string('model', { primaryKey: true }),
    int('channel_id', { primaryKey: true, autoIncrement: false, index: true }),
    bool('enabled'),
    int64('priority', { default: '0', index: true }),
  ],
};

const redemptions: GormModel = {
  table: 'redemptions',
  fields: [
    id,
    int('user_id'),
    string('key', { type: 'char(32)', uniqueIndex: true }),
    int('status', { default: '1' }),
    string('name', { index: true }),
    int64('quota', { default: '100' }),
    int64('created_time'),
    int64('redeemed_time'),
  ],
};

const logs: GormModel = {
  table: 'logs',
  fields: [
    id,
    int('user_id', { index: true }),
    int64('created_at'),
    int('type'),
    string('content'),
    string('username', { default: "''" }),
    string('token_name', { index: true, default: "''" }),
    string('model_name', { index: true, default: "''" }),
    int('quota', { default: '0' }),
    int('prompt_tokens', { default: '0' }),
    int('completion_tokens', { default: '0' }),
    int('channel_id', { index: true }),
    string('request_id', { default: "''" }),
    int64('elapsed_time', { default: '0' }),
    bool('is_stream', { default: 'false' }),
    bool('system_prompt_reset', { default: 'false' }),
  ],
  indexes: [
    { name: 'idx_created_at_type', columns: ['created_at', 'type'] },
    { name: 'index_username_model_name', columns: ['model_name', 'username'] },
  ],
};

/** In AutoMigrate's order (model/main.go). */
export const oneApiModels: readonly GormModel[] = [channels, tokens, users, options, redemptions, abilities, logs];
