import type { GormField, GormModel } from './gorm-ddl.ts';

/**
 * new-api CLASSIC (Calcium-Ion/new-api ef8ae4d, 2025-04-11): the model structs of model/*.go with
 * their GORM tags, field by field in declaration order, as AutoMigrate creates them.
 */
export const id: GormField = { column: 'id', go: 'int', primaryKey: true };
export const deletedAt: GormField = { column: 'deleted_at', go: 'deletedAt', index: true };
export const int = (column: string, tags: Partial<GormField> = {}): GormField => ({ column, go: 'int', ...tags });
export const int64 = (column: string, tags: Partial<GormField> = {}): GormField => ({ column, go: 'int64', ...tags });
export const string = (column: string, tags: Partial<GormField> = {}): GormField => ({ column, go: 'string', ...tags });
export const bool = (column: string, tags: Partial<GormField> = {}): GormField => ({ column, go: 'bool', ...tags });

export const classicUsers: GormModel = {
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
    string('oidc_id', { index: true }),
    string('wechat_id', { index: true }),
    string('telegram_id', { index: true }),
    string('access_token', { type: 'char(32)', uniqueIndex: true }),
    int('quota', { type: 'int', default: '0' }),
    int('used_quota', { type: 'int', default: '0' }),
    int('request_count', { type: 'int', default: '0' }),
    string('group', { type: 'varchar(64)', default: "'default'" }),
    string('aff_code', { type: 'varchar(32)', uniqueIndex: true }),
    int('aff_count', { type: 'int', default: '0' }),
    int('aff_quota', { type: 'int', default: '0' }),
    int('aff_history', { type: 'int', default: '0' }),
    int('inviter_id', { type: 'int', index: true }),
    deletedAt,
    string('linux_do_id', { index: true }),
    string('setting', { type: 'text' }),
  ],
};

export const classicTokens: GormModel = {
  table: 'tokens',
  fields: [
    id,
    int('user_id', { index: true }),
    string('key', { type: 'char(48)', uniqueIndex: true }),
    int('status', { default: '1' }),
    string('name', { index: true }),
    int64('created_time'),
    int64('accessed_time'),
    int64('expired_time', { default: '-1' }),
    int('remain_quota', { default: '0' }),
    bool('unlimited_quota', { default: 'false' }),
    bool('model_limits_enabled', { default: 'false' }),
    string('model_limits', { type: 'varchar(1024)', default: "''" }),
    string('allow_ips', { default: "''" }),
    int('used_quota', { default: '0' }),
    string('group', { default: "''" }),
    deletedAt,
  ],
};

export const classicChannels: GormModel = {
  table: 'channels',
  fields: [
    id,
    int('type', { default: '0' }),
    string('key', { notNull: true }),
    string('open_ai_organization'),
    string('test_model'),
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
    string('group', { type: 'varchar(64)', default: "'default'" }),
    int64('used_quota', { default: '0' }),
    string('model_mapping', { type: 'text' }),
    string('status_code_mapping', { type: 'varchar(1024)', default: "''" }),
    int64('priority', { default: '0' }),
    int('auto_ban', { default: '1' }),
    string('other_info'),
    string('tag', { index: true }),
    string('setting', { type: 'text' }),
    string('param_override', { type: 'text' }),
  ],
};

export const classicAbilities: GormModel = {
  table: 'abilities',
  fields: [
    string('group', { type: 'varchar(64)', primaryKey: true }),
    string('model', { type: 'varchar(255)', primaryKey: true }),
    int('channel_id', { primaryKey: true, autoIncrement: false, index: true }),
    bool('enabled'),
    int64('priority', { default: '0', index: true }),
    { column: 'weight', go: 'uint', default: '0', index: true },
    string('tag', { index: true }),
  ],
};

export const options: GormModel = { table: 'options', fields: [string('key', { primaryKey: true }), string('value')] };

export const classicRedemptions: GormModel = {
  table: 'redemptions',
  fields: [
    id,
    int('user_id'),
    string('key', { type: 'char(32)', uniqueIndex: true }),
    int('status', { default: '1' }),
    string('name', { index: true }),
    int('quota', { default: '100' }),
    int64('created_time'),
    int64('redeemed_time'),
    int('used_user_id'),
    deletedAt,
  ],
};

export const classicLogs: GormModel = {
  table: 'logs',
  fields: [
    id,
    int('user_id', { index: true }),
    int64('created_at'),
    int('type'),
    string('content'),
    string('username', { index: true, default: "''" }),
    string('token_name', { index: true, default: "''" }),
    string('model_name', { index: true, default: "''" }),
    int('quota', { default: '0' }),
    int('prompt_tokens', { default: '0' }),
    int('completion_tokens', { default: '0' }),
    int('use_time', { default: '0' }),
    bool('is_stream', { default: 'false' }),
    int('channel_id', { index: true }),
    int('token_id', { default: '0', index: true }),
    string('group', { index: true }),
    string('other'),
  ],
  indexes: [
    { name: 'idx_created_at_id', columns: ['id', 'created_at'] },
    { name: 'idx_created_at_type', columns: ['created_at', 'type'] },
    { name: 'index_username_model_name', columns: ['model_name', 'username'] },
  ],
};

export const classicMidjourneys: GormModel = {
  table: 'midjourneys',
  fields: [
    id,
    int('code'),
    int('user_id', { index: true }),
    string('action', { type: 'varchar(40)', index: true }),
    string('mj_id', { index: true }),
    string('prompt'),
    string('prompt_en'),
    string('description'),
    string('state'),
    int64('submit_time', { index: true }),
    int64('start_time', { index: true }),
    int64('finish_time', { index: true }),
    string('image_url'),
    string('status', { type: 'varchar(20)', index: true }),
    string('progress', { type: 'varchar(30)', index: true }),
    string('fail_reason'),
    int('channel_id'),
    int('quota'),
    string('buttons'),
    string('properties'),
  ],
};

export const classicTasks: GormModel = {
  table: 'tasks',
  fields: [
    int64('id', { primaryKey: true }),
    int64('created_at', { index: true }),
    int64('updated_at'),
    string('task_id', { type: 'varchar(50)', index: true }),
    string('platform', { type: 'varchar(30)', index: true }),
    int('user_id', { index: true }),
    int('channel_id', { index: true }),
    int('quota'),
    string('action', { type: 'varchar(40)', index: true }),
    string('status', { type: 'varchar(20)', index: true }),
    string('fail_reason'),
    int64('submit_time', { index: true }),
    int64('start_time', { index: true }),
    int64('finish_time', { index: true }),
    string('progress', { type: 'varchar(20)', index: true }),
    string('properties', { type: 'json' }),
    string('data', { type: 'json' }),
  ],
};

export const classicTopUps: GormModel = {
  table: 'top_ups',
  fields: [
    id,
    int('user_id', { index: true }),
    int64('amount'),
    { column: 'money', go: 'float64' },
    string('trade_no'),
    int64('create_time'),
    string('status'),
  ],
};

export const classicQuotaData: GormModel = {
  table: 'quota_data',
  fields: [
    id,
    int('user_id', { index: true }),
    string('username', { size: 64, default: "''" }),
    string('model_name', { size: 64, default: "''" }),
    int64('created_at'),
    int('token_used', { default: '0' }),
    int('count', { default: '0' }),
    int('quota', { default: '0' }),
  ],
  indexes: [
    { name: 'idx_qdt_model_user_name', columns: ['model_name', 'username'] },
    { name: 'idx_qdt_created_at', columns: ['created_at'] },
  ],
};

export const setups: GormModel = {
  table: 'setups',
  fields: [
    { column: 'id', go: 'uint', primaryKey: true },
    string('version', { type: 'varchar(50)', notNull: true }),
    int64('initialized_at', { type: 'bigint', notNull: true }),
  ],
};

/** In AutoMigrate's order (model/main.go). */
export const newApiClassicModels: readonly GormModel[] = [
  classicChannels,
  classicTokens,
  classicUsers,
  options,
  classicRedemptions,
  classicAbilities,
  classicLogs,
  classicMidjourneys,
  classicTopUps,
  classicQuotaData,
  classicTasks,
  setups,
];
