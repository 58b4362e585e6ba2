/**
 * The rows of a production-like new-api or one-api database, written once for all three schemas:
 * each table's rows are cut down to the columns that schema has, and the few rows whose meaning
 * differs (one-api's deleted users, token limits, channel types) come per schema.
 */
export type Flavor = 'new-api-classic' | 'new-api-current' | 'one-api';

export type Row = Record<string, string | number | boolean | null>;

/** bcrypt hashes (cost 10, Go's `$2a$`) of the passwords the login checks type. */
export const passwords = {
  root: { password: 'root-old-pass', hash: '$2a$10$0ZDOqf2dbRXBR8M1GS5feOlc6wAd9A4IVvA0xVK70FlbHri5bQw8a' },
  admin: { password: 'admin-old-pass', hash: '$2a$10$0PI2xL8l9uodsS6gUQDKD.BWer7MjmIWbG7I5eZDNn9VqYW9u1lli' },
  alice: { password: 'user-old-pass', hash: '$2a$10$2EKfDJJ08he2M5doDWkenejCrqrxBHkT2pquscBEpprn6SDp6T.bG' },
  bob: { password: 'second-user-pass', hash: '$2a$10$lwF6qkBq3rV3b1FviTIz8OIEDE5CoHF6FHRGuaPcQg15//6.GQbkm' },
  disabled: { password: 'disabled-pass', hash: '$2a$10$P7CCpxGf687rtWUvz33SMuYfXP9aEfc44dD.JjPavX2twuMq9jbbi' },
  deleted: { password: 'deleted-pass', hash: '$2a$10$ID6FHgY.QP16fhShKCDi6ulzY3vOeowdf9zC20qy0w7ajhZRLyJLe' },
} as const;

export const adminAccessToken = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

/** Relay keys as stored (without `sk-`), 48 characters like GenerateKey's. */
const key48 = (prefix: string, serial: number) => `${prefix}${'0'.repeat(47 - prefix.length)}${serial}`;
export const tokenKeys = {
  main: key48('MainKey0aliceUnlimited', 1),
  limited: key48('LimitedKey0alice', 2),
  ipLocked: key48('IpLockedKey0alice', 3),
  vip: key48('VipKey0bob', 4),
  expired: key48('ExpiredKey0alice', 5),
  deleted: key48('DeletedKey0alice', 6),
} as const;

/** Unix seconds of the fixture's "now" era (2025-06-01); every old row is older. */
export const fixtureEpoch = 1_748_736_000;
const day = 86_400;

function deletedAtValue(dialect: string): string {
  // GORM writes time.Time as text on SQLite (with the zone), as DATETIME(3)/timestamptz elsewhere.
  return dialect === 'sqlite' ? '2025-05-01 08:00:00.123456789+00:00' : '2025-05-01 08:00:00.123';
}

function users(flavor: Flavor, dialect: string): Row[] {
  const base = {
    display_name: '',
    email: '',
    github_id: '',
    oidc_id: '',
    wechat_id: '',
    telegram_id: '',
    linux_do_id: '',
    lark_id: '',
    discord_id: '',
    access_token: null,
    used_quota: 0,
    request_count: 0,
    group: 'default',
    aff_count: 0,
    aff_quota: 0,
    aff_history: 0,
    inviter_id: 0,
    setting: '',
    remark: '',
    stripe_customer: '',
    created_at: fixtureEpoch - 200 * day,
    last_login_at: fixtureEpoch - day,
    auth_version: 1,
    deleted_at: null,
  };
  const rows: Row[] = [
    { ...base, id: 1, username: 'root', password: passwords.root.hash, display_name: 'Root User', role: 100, status: 1, quota: 50_000_000, aff_code: 'R00T' },
    {
      ...base,
      id: 2,
      username: 'admin',
      password: passwords.admin.hash,
      display_name: 'Operator',
      role: 10,
      status: 1,
      quota: 1_000_000,
      aff_code: 'AdM1',
      access_token: adminAccessToken,
      email: 'ops@example.com',
    },
    {
      ...base,
      id: 3,
      username: 'alice',
      password: passwords.alice.hash,
      display_name: 'Alice',
      role: 1,
      status: 1,
      quota: 2_000_000,
      used_quota: 345_678,
      request_count: 812,
      aff_code: 'ALc3',
      github_id: '4711',
      setting: '{"record_ip_log":true,"notify_type":"email","quota_warning_threshold":500000}',
    },
    { ...base, id: 4, username: 'bob', password: passwords.bob.hash, display_name: 'Bob', role: 1, status: 1, quota: 800_000, aff_code: 'B0b4', group: 'vip', inviter_id: 3 },
    { ...base, id: 5, username: 'mallory', password: passwords.disabled.hash, role: 1, status: 2, quota: 10, aff_code: 'MaL5' },
  ];
  // new-api soft-deletes; one-api marks the user deleted (status 3) and renames it.
  rows.push(
    flavor === 'one-api'
      ? { ...base, id: 6, username: 'deleted_0f8e6a4c-1d2b-4c3a-9e8f-7a6b5c4d3e2f', password: passwords.deleted.hash, role: 1, status: 3, quota: 99, aff_code: 'DeL6' }
      : { ...base, id: 6, username: 'gone', password: passwords.deleted.hash, role: 1, status: 1, quota: 99, aff_code: 'DeL6', deleted_at: deletedAtValue(dialect) },
  );
  return rows;
}

function tokens(flavor: Flavor, dialect: string): Row[] {
  const oneApi = flavor === 'one-api';
  const base = {
    status: 1,
    created_time: fixtureEpoch - 100 * day,
    accessed_time: fixtureEpoch - day,
    expired_time: -1,
    remain_quota: 0,
    unlimited_quota: false,
    model_limits_enabled: false,
    model_limits: '',
    allow_ips: '',
    models: '',
    subnet: '',
    used_quota: 0,
    group: '',
    cross_group_retry: false,
    auto_groups: '[]',
    deleted_at: null,
  };
  const rows: Row[] = [
    { ...base, id: 1, user_id: 3, key: tokenKeys.main, name: 'main', unlimited_quota: true, used_quota: 300_000 },
    {
      ...base,
      id: 2,
      user_id: 3,
      key: tokenKeys.limited,
      name: 'limited',
      remain_quota: 400_000,
      model_limits_enabled: true,
      model_limits: 'gpt-4o-mini,claude-3-5-haiku-20241022',
      models: 'gpt-4o-mini,claude-3-5-haiku-20241022',
    },
    // one-api's subnet is a comma-separated CIDR list; new-api's allow_ips one IP or CIDR a line.
    { ...base, id: 3, user_id: 3, key: tokenKeys.ipLocked, name: 'ip-locked', unlimited_quota: true, allow_ips: '10.9.9.9\n10.9.8.0/24', subnet: '10.9.9.9/32,10.9.8.0/24' },
    { ...base, id: 4, user_id: 4, key: tokenKeys.vip, name: 'vip', unlimited_quota: true, group: oneApi ? '' : 'vip' },
    { ...base, id: 5, user_id: 3, key: tokenKeys.expired, name: 'expired', unlimited_quota: true, expired_time: fixtureEpoch - 10 * day },
  ];
  // one-api deletes tokens for good; new-api soft-deletes them.
  if (!oneApi) rows.push({ ...base, id: 6, user_id: 3, key: tokenKeys.deleted, name: 'deleted', unlimited_quota: true, deleted_at: deletedAtValue(dialect) });
  return rows;
}

export interface ChannelRow extends Row {
  id: number;
  models: string;
  group: string;
  status: number;
  priority: number;
  weight: number;
  tag: string | null;
}

/** Channels; `upstream` is the fake provider's base URL the relay checks talk to. */
function channels(flavor: Flavor, upstream: string): ChannelRow[] {
  const base = {
    open_ai_organization: '',
    test_model: '',
    status: 1,
    weight: 0,
    created_time: fixtureEpoch - 90 * day,
    test_time: fixtureEpoch - day,
    response_time: 812,
    base_url: upstream,
    other: '',
    balance: 12.5,
    balance_updated_time: fixtureEpoch - 2 * day,
    group: 'default',
    used_quota: 123_456,
    model_mapping: '',
    status_code_mapping: '',
    priority: 0,
    auto_ban: 1,
    other_info: '',
    tag: null,
    setting: '',
    param_override: '',
    header_override: '',
    remark: '',
    channel_info: '{"is_multi_key":false,"multi_key_size":0,"multi_key_status_list":null,"multi_key_polling_index":0,"multi_key_mode":""}',
    settings: '',
    config: '',
    system_prompt: '',
  };
  const rows: ChannelRow[] = [
    {
      ...base,
      id: 1,
      type: 1,
      name: 'openai-main',
      key: 'sk-upstream-openai-0001',
      models: 'gpt-4o-mini,gpt-4o',
      group: 'default,vip',
      model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
      status_code_mapping: '{"429":"500"}',
      priority: 10,
      weight: 5,
      tag: 'openai',
      setting: '{"force_format":false,"thinking_to_content":false,"proxy":"","pass_through_body_enabled":false,"system_prompt":""}',
      settings: '{"allow_service_tier":false,"disable_store":false}',
      other_info: '{"status_reason":"","status_time":0}',
    },
    // one-api keeps Azure's api-version in `config` (its `other` is deprecated there).
    flavor === 'one-api'
      ? { ...base, id: 2, type: 3, name: 'azure-east', key: 'azure-upstream-key', models: 'gpt-35-turbo', config: '{"api_version":"2024-10-21"}' }
      : { ...base, id: 2, type: 3, name: 'azure-east', key: 'azure-upstream-key', models: 'gpt-35-turbo', other: '2024-10-21' },
    { ...base, id: 3, type: 14, name: 'anthropic', key: 'sk-ant-upstream-0003', models: 'claude-3-5-haiku-20241022', tag: 'claude' },
    { ...base, id: 4, type: 24, name: 'gemini', key: 'gemini-upstream-key-0004', models: 'gemini-2.0-flash', other: flavor === 'one-api' ? '' : 'v1beta' },
    { ...base, id: 5, type: 1, name: 'openai-off', key: 'sk-disabled', models: 'gpt-4o-mini', status: 2, priority: -5 },
  ];
  if (flavor === 'one-api') {
    rows.push(
      // 2 is API2D in one-api (Midjourney Proxy in new-api): an OpenAI-compatible reseller.
      { ...base, id: 6, type: 2, name: 'api2d', key: 'fk-api2d-0006', models: 'gpt-3.5-turbo' },
      // 36 is DeepSeek in one-api (Suno in new-api).
      { ...base, id: 7, type: 36, name: 'deepseek', key: 'sk-deepseek-0007', models: 'deepseek-chat' },
      // 26 is Baichuan in one-api: OpenAI-compatible at its own address, given here by the default.
      { ...base, id: 8, type: 26, name: 'baichuan', key: 'sk-baichuan-0008', models: 'Baichuan4', base_url: '' },
      // 38 is DeepL in one-api (Jina in new-api): nothing of ours speaks it.
      { ...base, id: 9, type: 38, name: 'deepl', key: 'deepl-key-0009', models: 'deepl-en' },
      // 37 is Cloudflare in one-api; its account id sits in `config`.
      { ...base, id: 10, type: 37, name: 'workers-ai', key: 'cf-token-0010', models: '@cf/meta/llama-3.1-8b-instruct', config: '{"user_id":"cf-account-42"}' },
    );
  } else {
    rows.push(
      { ...base, id: 6, type: 2, name: 'mj-proxy', key: 'mj-secret-0006', models: 'mj_imagine,mj_upscale' },
      { ...base, id: 7, type: 36, name: 'suno', key: 'suno-key-0007', models: 'suno_music,suno_lyrics' },
    );
  }
  if (flavor === 'new-api-current') {
    rows.push({
      ...base,
      id: 11,
      type: 1,
      name: 'openai-multi',
      key: 'sk-multi-a\nsk-multi-b',
      models: 'gpt-4.1-nano',
      channel_info: '{"is_multi_key":true,"multi_key_size":2,"multi_key_status_list":{},"multi_key_polling_index":0,"multi_key_mode":"polling"}',
    });
  }
  return rows;
}

function abilities(channelRows: readonly ChannelRow[]): Row[] {
  return channelRows.flatMap((channel) =>
    channel.group.split(',').flatMap((group) =>
      channel.models.split(',').map((model) => ({
        group,
        model,
        channel_id: channel.id,
        enabled: channel.status === 1,
        priority: channel.priority,
        weight: channel.weight,
        tag: channel.tag,
      })),
    ),
  );
}

/** The models the fixture prices, plus a few hundred more as a real ModelRatio has. */
export const modelRatios: Readonly<Record<string, number>> = {
  'gpt-4o-mini': 0.075,
  'gpt-4o': 1.25,
  'gpt-4o-2024-08-06': 1.25,
  'gpt-35-turbo': 0.25,
  'gpt-3.5-turbo': 0.25,
  'claude-3-5-haiku-20241022': 0.4,
  'gemini-2.0-flash': 0.05,
  'gpt-4.1-nano': 0.05,
  'deepseek-chat': 0.135,
  Baichuan4: 50,
  ...Object.fromEntries(Array.from({ length: 320 }, (_, index) => [`vendor-model-${index}`, Math.round((index % 37) * 0.37 * 1000) / 1000 + 0.01])),
};

export const fixtureOptions: Readonly<Record<string, string>> = {
  SystemName: 'Acme AI Gateway',
  Logo: 'https://example.com/logo.png',
  Footer: 'Acme footer',
  Notice: '**Maintenance** on Sunday',
  About: 'About Acme',
  HomePageContent: '',
  ServerAddress: 'https://ai.example.com',
  ModelRatio: JSON.stringify(modelRatios),
  CompletionRatio: JSON.stringify({ 'gpt-4o-mini': 4, 'claude-3-5-haiku-20241022': 5, 'gemini-2.0-flash': 4 }),
  GroupRatio: JSON.stringify({ default: 1, vip: 1.5, svip: 0.8 }),
  ModelPrice: JSON.stringify({ 'mj_imagine': 0.1, 'suno_music': 0.1, 'dall-e-3': 0.04 }),
  QuotaPerUnit: '500000',
  DisplayInCurrencyEnabled: 'true',
  DisplayTokenStatEnabled: 'true',
  RegisterEnabled: 'true',
  PasswordLoginEnabled: 'true',
  PasswordRegisterEnabled: 'true',
  EmailVerificationEnabled: 'false',
  GitHubOAuthEnabled: 'false',
  TurnstileCheckEnabled: 'false',
  QuotaForNewUser: '5000',
  QuotaForInviter: '1000',
  QuotaForInvitee: '1000',
  QuotaRemindThreshold: '1000',
  PreConsumedQuota: '500',
  RetryTimes: '2',
  LogConsumeEnabled: 'true',
  AutomaticDisableChannelEnabled: 'true',
  AutomaticEnableChannelEnabled: 'false',
  ChannelDisableThreshold: '5',
  TopUpLink: 'https://shop.example.com',
  ChatLink: '',
  DataExportEnabled: 'true',
  DataExportInterval: '5',
  DefaultCollapseSidebar: 'false',
  MjNotifyEnabled: 'false',
  CheckSensitiveEnabled: 'false',
  StopOnSensitiveEnabled: 'true',
  SMTPServer: 'smtp.example.com',
  SMTPPort: '587',
  SMTPAccount: 'mailer@example.com',
  SMTPToken: 'smtp-secret-token',
  GitHubClientSecret: 'github-secret',
};

function logs(flavor: Flavor, count: number): Row[] {
  const users = [
    { id: 3, username: 'alice', token: 'main', tokenId: 1, group: 'default' },
    { id: 4, username: 'bob', token: 'vip', tokenId: 4, group: 'vip' },
  ];
  const models = ['gpt-4o-mini', 'gpt-4o', 'claude-3-5-haiku-20241022', 'gemini-2.0-flash'];
  const types = flavor === 'new-api-current' ? [1, 2, 2, 2, 2, 3, 4, 5, 6, 7] : [1, 2, 2, 2, 2, 2, 3, 4, 5];
  return Array.from({ length: count }, (_, index) => {
    const user = users[index % users.length] ?? users[0];
    const type = types[index % types.length] ?? 2;
    const model = type === 2 || type === 5 ? (models[index % models.length] ?? '') : '';
    const consume = type === 2;
    return {
      user_id: user?.id ?? 3,
      created_at: fixtureEpoch - 30 * day + index * 600,
      type,
      content: consume ? `模型倍率 0.075，补全倍率 4，分组倍率 1` : `entry ${index}`,
      username: user?.username ?? '',
      token_name: consume ? (user?.token ?? '') : '',
      model_name: model,
      quota: consume ? 100 + (index % 50) * 7 : 0,
      prompt_tokens: consume ? 20 + (index % 13) : 0,
      completion_tokens: consume ? 40 + (index % 17) : 0,
      use_time: consume ? 1 + (index % 5) : 0,
      is_stream: index % 3 === 0,
      channel_id: consume ? 1 + (index % 4) : 0,
      token_id: consume ? (user?.tokenId ?? 0) : 0,
      group: consume ? (user?.group ?? '') : '',
      other: consume ? '{"model_ratio":0.075,"completion_ratio":4,"group_ratio":1,"frt":-1000}' : '',
      request_id: consume ? `2025060100000${index}` : '',
      upstream_request_id: '',
      elapsed_time: consume ? 1200 : 0,
      system_prompt_reset: false,
    };
  });
}

function midjourneys(): Row[] {
  const base = {
    code: 1,
    prompt_en: '',
    description: '',
    state: '',
    image_url: '',
    video_url: '',
    video_urls: '',
    fail_reason: '',
    channel_id: 6,
    quota: 50_000,
    buttons: '[]',
    properties: '{}',
  };
  return [
    { ...base, id: 1, user_id: 3, action: 'IMAGINE', mj_id: '1712345678901', prompt: 'a red fox', submit_time: (fixtureEpoch - 5 * day) * 1000, start_time: (fixtureEpoch - 5 * day) * 1000, finish_time: (fixtureEpoch - 5 * day + 60) * 1000, image_url: 'https://cdn.example.com/fox.png', status: 'SUCCESS', progress: '100%' },
    { ...base, id: 2, user_id: 3, action: 'UPSCALE', mj_id: '1712345678902', prompt: 'a red fox', submit_time: (fixtureEpoch - 4 * day) * 1000, start_time: 0, finish_time: (fixtureEpoch - 4 * day) * 1000, status: 'FAILURE', progress: '', fail_reason: 'banned prompt' },
    { ...base, id: 3, user_id: 4, action: 'IMAGINE', mj_id: '1712345678903', prompt: 'a blue whale', submit_time: (fixtureEpoch - 3 * day) * 1000, start_time: (fixtureEpoch - 3 * day) * 1000, finish_time: (fixtureEpoch - 3 * day + 90) * 1000, status: 'SUCCESS', progress: '100%' },
  ];
}

function tasks(): Row[] {
  const base = { platform: 'suno', channel_id: 7, quota: 50_000, group: 'default', fail_reason: '', progress: '100%', private_data: '{}' };
  return [
    { ...base, id: 1, created_at: fixtureEpoch - 6 * day, updated_at: fixtureEpoch - 6 * day + 120, task_id: 'suno-task-0001', user_id: 3, action: 'MUSIC', status: 'SUCCESS', submit_time: fixtureEpoch - 6 * day, start_time: fixtureEpoch - 6 * day + 5, finish_time: fixtureEpoch - 6 * day + 120, properties: '{"input":"lofi beat"}', data: '[{"id":"clip-1","audio_url":"https://cdn.example.com/1.mp3"}]' },
    { ...base, id: 2, created_at: fixtureEpoch - 2 * day, updated_at: fixtureEpoch - 2 * day + 30, task_id: 'suno-task-0002', user_id: 3, action: 'LYRICS', status: 'FAILURE', fail_reason: 'upstream timeout', progress: '100%', submit_time: fixtureEpoch - 2 * day, start_time: 0, finish_time: fixtureEpoch - 2 * day + 30, properties: '{"input":"a song about tea"}', data: 'null' },
    { ...base, id: 3, created_at: fixtureEpoch - day, updated_at: fixtureEpoch - day, task_id: 'suno-task-0003', user_id: 4, action: 'MUSIC', status: 'SUCCESS', submit_time: fixtureEpoch - day, start_time: fixtureEpoch - day, finish_time: fixtureEpoch - day + 100, properties: '{"input":"jazz"}', data: '[]' },
  ];
}

function redemptions(flavor: Flavor, dialect: string): Row[] {
  const base = { user_id: 1, status: 1, quota: 500_000, created_time: fixtureEpoch - 20 * day, redeemed_time: 0, used_user_id: 0, expired_time: 0, deleted_at: null };
  const rows: Row[] = [
    { ...base, id: 1, key: '0a1b2c3d4e5f60718293a4b5c6d7e8f9', name: 'launch' },
    { ...base, id: 2, key: '1b2c3d4e5f60718293a4b5c6d7e8f90a', name: 'launch', status: 3, redeemed_time: fixtureEpoch - 10 * day, used_user_id: 3 },
  ];
  if (flavor !== 'one-api') rows.push({ ...base, id: 3, key: '2c3d4e5f60718293a4b5c6d7e8f90a1b', name: 'withdrawn', deleted_at: deletedAtValue(dialect) });
  return rows;
}

function topUps(): Row[] {
  const base = { user_id: 3, payment_method: 'alipay', payment_provider: 'epay' };
  return [
    { ...base, id: 1, amount: 10, money: 72.5, trade_no: 'USR3NOa1B2c31746000000', create_time: fixtureEpoch - 15 * day, complete_time: fixtureEpoch - 15 * day + 30, status: 'success' },
    { ...base, id: 2, amount: 5, money: 36.25, trade_no: 'USR3NOd4E5f61747000000', create_time: fixtureEpoch - 3 * day, complete_time: 0, status: 'pending' },
  ];
}

function quotaData(): Row[] {
  return Array.from({ length: 48 }, (_, index) => ({
    id: index + 1,
    user_id: index % 2 === 0 ? 3 : 4,
    username: index % 2 === 0 ? 'alice' : 'bob',
    model_name: index % 3 === 0 ? 'gpt-4o-mini' : 'claude-3-5-haiku-20241022',
    created_at: fixtureEpoch - 48 * 3600 + index * 3600,
    token_used: 1_000 + index,
    count: 3 + (index % 4),
    quota: 5_000 + index * 10,
    use_group: 'default',
    token_id: 1,
    channel_id: 1,
    node_name: 'node-a',
  }));
}

/** A row of new-api's `models` catalogue. */
function catalogueRow(id: number, modelName: string, fields: Row): Row {
  const time = fixtureEpoch - 30 * day;
  return { id, model_name: modelName, description: '', icon: '', tags: '', vendor_id: 0, endpoints: '', status: 1, sync_official: 1, created_time: time, updated_time: time, name_rule: 0, ...fields };
}

export interface FixtureRows {
  readonly tables: Readonly<Record<string, readonly Row[]>>;
  readonly channels: readonly ChannelRow[];
}

/** Every table's rows for a schema; tables the schema lacks are dropped by the loader. */
export function fixtureRows(flavor: Flavor, dialect: string, upstream: string, logCount: number): FixtureRows {
  const channelRows = channels(flavor, upstream);
  return {
    channels: channelRows,
    tables: {
      users: users(flavor, dialect),
      tokens: tokens(flavor, dialect),
      channels: channelRows,
      abilities: abilities(channelRows),
      options: Object.entries(fixtureOptions).map(([key, value]) => ({ key, value })),
      redemptions: redemptions(flavor, dialect),
      logs: logs(flavor, logCount),
      midjourneys: midjourneys(),
      tasks: tasks(),
      top_ups: topUps(),
      quota_data: quotaData(),
      setups: [{ id: 1, version: 'v0.6.11', initialized_at: fixtureEpoch - 200 * day }],
      // Only CURRENT has the catalogue tables; the loader drops these rows elsewhere.
      vendors: [
        { id: 1, name: 'OpenAI', description: '', icon: 'OpenAI', status: 1, created_time: fixtureEpoch - 30 * day, updated_time: fixtureEpoch - 30 * day },
        { id: 2, name: '智谱', description: '', icon: 'Zhipu.Color', status: 1, created_time: fixtureEpoch - 30 * day, updated_time: fixtureEpoch - 30 * day },
      ],
      models: [
        catalogueRow(1, 'gpt-4o-mini', { description: 'Small and fast', tags: 'chat,cheap', vendor_id: 1 }),
        catalogueRow(2, 'claude-3-5', { tags: 'claude', name_rule: 1 }),
      ],
    },
  };
}
