/**
 * The data model as data: every table and column of classic new-api (same names, so an existing
 * new-api or one-api database opens in place), and the indexes we rely on. Migrations create what is
 * missing from these definitions and never drop or change anything.
 */
export type ColumnType = 'id' | 'bigint' | 'int' | 'double' | 'boolean' | 'text' | 'timestamp' | `varchar(${number})`;

export interface ColumnDefinition {
  readonly name: string;
  readonly type: ColumnType;
  readonly notNull?: boolean;
  readonly defaultValue?: string | number | boolean;
  readonly unique?: boolean;
}

export interface IndexDefinition {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique?: boolean;
  /**
   * Columns stored beside each entry so a read of them needs no table row (an index-only scan):
   * PostgreSQL's `INCLUDE` (not part of the order, not in the inner pages); on SQLite and MySQL, which
   * have no such clause, trailing key columns.
   */
  readonly include?: readonly string[];
}

export interface TableDefinition {
  readonly name: string;
  readonly columns: readonly ColumnDefinition[];
  readonly primaryKey?: readonly string[];
  readonly indexes: readonly IndexDefinition[];
}

const id: ColumnDefinition = { name: 'id', type: 'id' };
const bigint = (name: string, defaultValue: number | undefined = 0): ColumnDefinition => ({
  name,
  type: 'bigint',
  ...(defaultValue === undefined ? {} : { defaultValue }),
});
const int = (name: string, defaultValue = 0): ColumnDefinition => ({ name, type: 'int', defaultValue });
const varchar = (name: string, length: number, defaultValue?: string): ColumnDefinition => ({
  name,
  type: `varchar(${length})`,
  ...(defaultValue === undefined ? {} : { defaultValue }),
});
// MySQL refuses literal defaults on TEXT columns, so text columns never carry one; inserts set them.
const text = (name: string): ColumnDefinition => ({ name, type: 'text' });
const flag = (name: string, defaultValue = false): ColumnDefinition => ({ name, type: 'boolean', defaultValue });
const deletedAt: ColumnDefinition = { name: 'deleted_at', type: 'timestamp' };
const index = (table: string, ...columns: string[]): IndexDefinition => ({ name: `idx_${table}_${columns.join('_')}`, columns });
const uniqueIndex = (table: string, ...columns: string[]): IndexDefinition => ({ name: `uidx_${table}_${columns.join('_')}`, columns, unique: true });

/**
 * A spending budget per day, week or month (migration 0021): `budget_quota` 0 is none. The period's
 * use is `used_quota - budget_used_base` while `budget_period_start` (unix seconds) is the current
 * period's start, so every charge already counted in `used_quota` counts in the budget without a
 * write of its own; the alert columns remember the last 50/80/100 % level mailed in which period.
 */
const budgetColumns: readonly ColumnDefinition[] = [
  bigint('budget_quota'),
  varchar('budget_period', 16, ''),
  bigint('budget_period_start'),
  bigint('budget_used_base'),
  int('budget_alert_level'),
  bigint('budget_alert_period'),
];

export const users: TableDefinition = {
  name: 'users',
  columns: [
    id,
    varchar('username', 191),
    { name: 'password', type: 'text', notNull: true },
    varchar('display_name', 191, ''),
    int('role', 1),
    int('status', 1),
    varchar('email', 191, ''),
    varchar('github_id', 191, ''),
    // new-api's OIDC login subject; kept so an imported database and a move back keep their bindings (added by 0014).
    varchar('oidc_id', 191, ''),
    varchar('wechat_id', 191, ''),
    varchar('telegram_id', 191, ''),
    varchar('linux_do_id', 191, ''),
    varchar('access_token', 64),
    bigint('quota'),
    bigint('used_quota'),
    bigint('request_count'),
    varchar('group', 64, 'default'),
    varchar('aff_code', 32),
    bigint('aff_count'),
    bigint('aff_quota'),
    bigint('aff_history'),
    bigint('inviter_id'),
    text('setting'),
    varchar('remark', 255, ''),
    bigint('created_at'),
    bigint('last_login_at'),
    deletedAt,
    ...budgetColumns,
    // When the low-balance alert (QuotaRemindThreshold) last went out: one per crossing across instances (0021).
    bigint('quota_alerted_at'),
  ],
  indexes: [
    uniqueIndex('users', 'username'),
    uniqueIndex('users', 'access_token'),
    uniqueIndex('users', 'aff_code'),
    index('users', 'display_name'),
    index('users', 'email'),
    index('users', 'github_id'),
    index('users', 'oidc_id'),
    index('users', 'wechat_id'),
    index('users', 'telegram_id'),
    index('users', 'linux_do_id'),
    index('users', 'inviter_id'),
    index('users', 'deleted_at'),
  ],
};

export const tokens: TableDefinition = {
  name: 'tokens',
  columns: [
    id,
    bigint('user_id'),
    varchar('key', 128),
    int('status', 1),
    varchar('name', 191, ''),
    bigint('created_time'),
    bigint('accessed_time'),
    bigint('expired_time', -1),
    bigint('remain_quota'),
    flag('unlimited_quota'),
    flag('model_limits_enabled'),
    text('model_limits'),
    text('allow_ips'),
    bigint('used_quota'),
    varchar('group', 64, ''),
    deletedAt,
    ...budgetColumns,
    // The token's own request limits, 0 = unlimited (migration 0019).
    int('rpm_limit'),
    bigint('tpm_limit'),
    int('concurrency_limit'),
    // Store this token's request and response bodies while the global payload logging is off (migration 0025).
    flag('log_payload'),
    // The owner's response-cache opt-out and model-fallback override (JSON, '' = the option's) (migration 0030).
    flag('response_cache_off'),
    text('model_fallbacks'),
  ],
  indexes: [uniqueIndex('tokens', 'key'), index('tokens', 'user_id'), index('tokens', 'name'), index('tokens', 'deleted_at')],
};

export const channels: TableDefinition = {
  name: 'channels',
  columns: [
    id,
    int('type', 0),
    { name: 'key', type: 'text', notNull: true },
    varchar('open_ai_organization', 191, ''),
    varchar('test_model', 191, ''),
    int('status', 1),
    varchar('name', 191, ''),
    bigint('weight'),
    bigint('created_time'),
    bigint('test_time'),
    int('response_time'),
    varchar('base_url', 191, ''),
    text('other'),
    { name: 'balance', type: 'double', defaultValue: 0 },
    bigint('balance_updated_time'),
    text('models'),
    varchar('group', 64, 'default'),
    bigint('used_quota'),
    text('model_mapping'),
    varchar('status_code_mapping', 1024, ''),
    bigint('priority'),
    int('auto_ban', 1),
    text('other_info'),
    varchar('tag', 191),
    text('setting'),
    text('param_override'),
    text('header_override'),
    varchar('remark', 255, ''),
    text('settings'),
    text('channel_info'),
  ],
  indexes: [index('channels', 'name'), index('channels', 'tag')],
};

export const abilities: TableDefinition = {
  name: 'abilities',
  columns: [
    { name: 'group', type: 'varchar(64)', notNull: true },
    { name: 'model', type: 'varchar(255)', notNull: true },
    { name: 'channel_id', type: 'bigint', notNull: true },
    flag('enabled', true),
    bigint('priority'),
    bigint('weight'),
    varchar('tag', 191),
  ],
  primaryKey: ['group', 'model', 'channel_id'],
  indexes: [index('abilities', 'channel_id'), index('abilities', 'priority'), index('abilities', 'weight'), index('abilities', 'tag')],
};

export const options: TableDefinition = {
  name: 'options',
  columns: [{ name: 'key', type: 'varchar(191)', notNull: true }, text('value')],
  primaryKey: ['key'],
  indexes: [],
};

export const redemptions: TableDefinition = {
  name: 'redemptions',
  columns: [
    id,
    bigint('user_id'),
    varchar('key', 32),
    int('status', 1),
    varchar('name', 191, ''),
    bigint('quota', 100),
    bigint('created_time'),
    bigint('redeemed_time'),
    bigint('used_user_id'),
    bigint('expired_time'),
    deletedAt,
  ],
  indexes: [uniqueIndex('redemptions', 'key'), index('redemptions', 'name'), index('redemptions', 'deleted_at')],
};

/**
 * The log page filters by user, time, type, model, token, username, channel and group and always
 * orders by id descending, so each filter column is indexed together with `id` (new-api's
 * `(created_at, type)` index cannot serve "newest first for this model").
 */
/**
 * A user's logs newest first, with the columns the log page filters and sums a user's logs by beside
 * each entry (migration 0034): a heavy user's total with a model, token name, type or group (hundreds
 * of thousands of logs) is counted in the index alone, not with a row lookup per log. `id` follows the
 * time so the order is the page's (created_at, id) on every engine.
 */
export const logsByUserIndex: IndexDefinition = {
  name: 'idx_logs_user_id_created_at_covering',
  columns: ['user_id', 'created_at', 'id', 'type', 'model_name', 'token_name', 'group', 'quota'],
};

export const logs: TableDefinition = {
  name: 'logs',
  columns: [
    id,
    bigint('user_id'),
    bigint('created_at'),
    int('type', 0),
    text('content'),
    varchar('username', 191, ''),
    varchar('token_name', 191, ''),
    varchar('model_name', 191, ''),
    bigint('quota'),
    bigint('prompt_tokens'),
    bigint('completion_tokens'),
    int('use_time'),
    flag('is_stream'),
    bigint('channel_id'),
    bigint('token_id'),
    varchar('group', 64, ''),
    varchar('ip', 64, ''),
    varchar('request_id', 64, ''),
    text('other'),
  ],
  indexes: [
    // The filter columns' (column, created_at, id) indexes come with migration 0012.
    index('logs', 'created_at', 'id'),
    logsByUserIndex,
    index('logs', 'type', 'created_at'),
    index('logs', 'request_id'),
  ],
};

export const midjourneys: TableDefinition = {
  name: 'midjourneys',
  columns: [
    id,
    int('code', 0),
    bigint('user_id'),
    varchar('action', 40, ''),
    varchar('mj_id', 191, ''),
    text('prompt'),
    text('prompt_en'),
    text('description'),
    text('state'),
    bigint('submit_time'),
    bigint('start_time'),
    bigint('finish_time'),
    text('image_url'),
    text('video_url'),
    text('video_urls'),
    varchar('status', 20, ''),
    varchar('progress', 30, ''),
    text('fail_reason'),
    bigint('channel_id'),
    bigint('quota'),
    text('buttons'),
    text('properties'),
    // Ours, not new-api's: the relay key that paid, so a failed drawing's refund returns to it too.
    bigint('token_id'),
  ],
  indexes: [
    index('midjourneys', 'user_id'),
    index('midjourneys', 'action'),
    index('midjourneys', 'mj_id'),
    index('midjourneys', 'submit_time'),
    index('midjourneys', 'start_time'),
    index('midjourneys', 'finish_time'),
    index('midjourneys', 'status'),
    index('midjourneys', 'progress'),
  ],
};

export const tasks: TableDefinition = {
  name: 'tasks',
  columns: [
    id,
    bigint('created_at'),
    bigint('updated_at'),
    varchar('task_id', 191, ''),
    varchar('platform', 30, ''),
    bigint('user_id'),
    varchar('group', 50, ''),
    bigint('channel_id'),
    bigint('quota'),
    varchar('action', 40, ''),
    varchar('status', 20, ''),
    text('fail_reason'),
    bigint('submit_time'),
    bigint('start_time'),
    bigint('finish_time'),
    varchar('progress', 20, ''),
    text('properties'),
    text('private_data'),
    text('data'),
  ],
  indexes: [
    index('tasks', 'created_at'),
    index('tasks', 'task_id'),
    index('tasks', 'platform'),
    index('tasks', 'user_id'),
    index('tasks', 'channel_id'),
    index('tasks', 'action'),
    index('tasks', 'status'),
    index('tasks', 'submit_time'),
    // new-api indexes all three task times; start_time came with 0014.
    index('tasks', 'start_time'),
    index('tasks', 'finish_time'),
    index('tasks', 'progress'),
  ],
};

export const topUps: TableDefinition = {
  name: 'top_ups',
  columns: [
    id,
    bigint('user_id'),
    bigint('amount'),
    { name: 'money', type: 'double', defaultValue: 0 },
    varchar('trade_no', 191),
    varchar('payment_method', 50, ''),
    bigint('create_time'),
    bigint('complete_time'),
    varchar('status', 32, ''),
    // Ours: the quota the order credits, fixed when it is placed (0 on new-api's rows: amount × QuotaPerUnit).
    bigint('quota'),
  ],
  indexes: [index('top_ups', 'user_id'), uniqueIndex('top_ups', 'trade_no')],
};

export const quotaData: TableDefinition = {
  name: 'quota_data',
  columns: [
    id,
    bigint('user_id'),
    varchar('username', 64, ''),
    varchar('model_name', 191, ''),
    bigint('created_at'),
    bigint('token_used'),
    bigint('count'),
    bigint('quota'),
  ],
  indexes: [index('quota_data', 'user_id', 'created_at'), index('quota_data', 'created_at'), index('quota_data', 'model_name', 'username')],
};

/** new-api marks an initialised system with a row here; keeping it lets a database move back and forth. */
export const setups: TableDefinition = {
  name: 'setups',
  columns: [id, varchar('version', 50, ''), bigint('initialized_at')],
  indexes: [],
};

/** Everything that lives in the main database. The logs table lives in LOG_SQL_DSN when that is set. */
export const mainTables: readonly TableDefinition[] = [users, tokens, channels, abilities, options, redemptions, midjourneys, tasks, topUps, quotaData, setups];
export const logTables: readonly TableDefinition[] = [logs];

/**
 * Console login sessions. The cookie carries only a signed session id; the row is what logout
 * deletes, so a logout ends the session on every instance at once. Named so it cannot clash with
 * new-api's own `user_sessions` table.
 */
export const sessions: TableDefinition = {
  name: 'switchboard_sessions',
  columns: [{ name: 'id', type: 'varchar(64)', notNull: true }, bigint('user_id'), bigint('created_at'), bigint('expires_at'), varchar('ip', 64, '')],
  primaryKey: ['id'],
  indexes: [index('switchboard_sessions', 'user_id'), index('switchboard_sessions', 'expires_at')],
};
