/**
 * CSV exports (`GET /api/export/<table>`): the tables, and each column's header in both console
 * languages. The server writes these headers; the console's own column titles live in its locale
 * files, and `packages/web/src/components/export-headers.test.ts` checks that every header here reads
 * exactly as the locale entry `locale` (namespace = the table's console feature) says.
 */
export const exportTables = ['logs', 'users', 'channels', 'tokens', 'redemptions'] as const;
export type ExportTable = (typeof exportTables)[number];

export interface ExportHeader {
  /** The key of the same words in the console's locale file of the table's feature. */
  locale: string;
  zh: string;
  en: string;
}

/** The console feature (locale namespace) each table's headers come from. */
export const exportNamespaces: Readonly<Record<ExportTable, string>> = {
  logs: 'logs',
  users: 'users',
  channels: 'channels',
  tokens: 'tokens',
  redemptions: 'redemptions',
};

export const logExportHeaders = {
  id: { locale: 'exportColumns.id', zh: 'ID', en: 'ID' },
  created_at: { locale: 'columns.time', zh: '时间', en: 'Time' },
  channel: { locale: 'columns.channel', zh: '渠道', en: 'Channel' },
  channel_name: { locale: 'exportColumns.channelName', zh: '渠道名称', en: 'Channel name' },
  username: { locale: 'columns.user', zh: '用户', en: 'User' },
  token_name: { locale: 'columns.token', zh: '令牌', en: 'Token' },
  group: { locale: 'columns.group', zh: '分组', en: 'Group' },
  type: { locale: 'columns.type', zh: '类型', en: 'Type' },
  model_name: { locale: 'columns.model', zh: '模型', en: 'Model' },
  use_time: { locale: 'exportColumns.useTime', zh: '用时（秒）', en: 'Time taken (s)' },
  is_stream: { locale: 'exportColumns.stream', zh: '流式', en: 'Stream' },
  prompt_tokens: { locale: 'columns.prompt', zh: '提示', en: 'Prompt' },
  completion_tokens: { locale: 'columns.completion', zh: '补全', en: 'Completion' },
  quota: { locale: 'columns.cost', zh: '花费', en: 'Cost' },
  content: { locale: 'columns.details', zh: '详情', en: 'Details' },
  ip: { locale: 'exportColumns.ip', zh: 'IP', en: 'IP' },
  request_id: { locale: 'exportColumns.requestId', zh: '请求 ID', en: 'Request ID' },
} as const satisfies Record<string, ExportHeader>;

/** Log type names as the log page shows them (locale `types.<n>`). */
export const logTypeNames: Readonly<Record<number, Omit<ExportHeader, 'locale'>>> = {
  1: { zh: '充值', en: 'Top-up' },
  2: { zh: '消费', en: 'Consume' },
  3: { zh: '管理', en: 'Admin' },
  4: { zh: '系统', en: 'System' },
  5: { zh: '错误', en: 'Error' },
  6: { zh: '退款', en: 'Refund' },
};

export const userExportHeaders = {
  id: { locale: 'exportColumns.id', zh: 'ID', en: 'ID' },
  username: { locale: 'columns.username', zh: '用户名', en: 'Username' },
  display_name: { locale: 'exportColumns.displayName', zh: '显示名称', en: 'Display name' },
  email: { locale: 'exportColumns.email', zh: '邮箱', en: 'Email' },
  group: { locale: 'columns.group', zh: '分组', en: 'Group' },
  role: { locale: 'columns.role', zh: '用户角色', en: 'Role' },
  status: { locale: 'columns.status', zh: '状态', en: 'Status' },
  quota: { locale: 'columns.quota', zh: '剩余额度', en: 'Remaining quota' },
  used_quota: { locale: 'columns.usedQuota', zh: '已用额度', en: 'Used quota' },
  request_count: { locale: 'columns.requestCount', zh: '调用次数', en: 'Requests' },
  created_at: { locale: 'exportColumns.createdAt', zh: '注册时间', en: 'Registered' },
} as const satisfies Record<string, ExportHeader>;

/** Never the key: an upstream secret does not leave the server in a file. */
export const channelExportHeaders = {
  id: { locale: 'columns.id', zh: 'ID', en: 'ID' },
  name: { locale: 'columns.name', zh: '名称', en: 'Name' },
  type: { locale: 'columns.type', zh: '类型', en: 'Type' },
  status: { locale: 'columns.status', zh: '状态', en: 'Status' },
  group: { locale: 'columns.group', zh: '分组', en: 'Group' },
  models: { locale: 'exportColumns.models', zh: '模型', en: 'Models' },
  base_url: { locale: 'exportColumns.baseUrl', zh: '代理地址', en: 'Base URL' },
  tag: { locale: 'exportColumns.tag', zh: '标签', en: 'Tag' },
  priority: { locale: 'columns.priority', zh: '优先级', en: 'Priority' },
  weight: { locale: 'columns.weight', zh: '权重', en: 'Weight' },
  response_time: { locale: 'exportColumns.responseTimeMs', zh: '响应时间（毫秒）', en: 'Response time (ms)' },
  used_quota: { locale: 'exportColumns.usedQuota', zh: '已用额度', en: 'Used quota' },
  balance: { locale: 'exportColumns.balance', zh: '余额', en: 'Balance' },
  created_time: { locale: 'exportColumns.createdTime', zh: '创建时间', en: 'Created' },
  test_time: { locale: 'exportColumns.testTime', zh: '测试时间', en: 'Tested' },
} as const satisfies Record<string, ExportHeader>;

/** The key masked as the token list masks it (first and last four characters). */
export const tokenExportHeaders = {
  id: { locale: 'exportColumns.id', zh: 'ID', en: 'ID' },
  name: { locale: 'columns.name', zh: '名称', en: 'Name' },
  key: { locale: 'exportColumns.maskedKey', zh: '密钥（已遮盖）', en: 'Key (masked)' },
  status: { locale: 'columns.status', zh: '状态', en: 'Status' },
  group: { locale: 'exportColumns.group', zh: '分组', en: 'Group' },
  used_quota: { locale: 'columns.usedQuota', zh: '已用额度', en: 'Used quota' },
  remain_quota: { locale: 'columns.remainQuota', zh: '剩余额度', en: 'Remaining quota' },
  unlimited_quota: { locale: 'exportColumns.unlimited', zh: '无限额度', en: 'Unlimited quota' },
  created_time: { locale: 'columns.createdTime', zh: '创建时间', en: 'Created' },
  accessed_time: { locale: 'exportColumns.accessedTime', zh: '最后使用时间', en: 'Last used' },
  expired_time: { locale: 'columns.expiredTime', zh: '过期时间', en: 'Expires' },
} as const satisfies Record<string, ExportHeader>;

export const redemptionExportHeaders = {
  id: { locale: 'columns.id', zh: 'ID', en: 'ID' },
  name: { locale: 'columns.name', zh: '名称', en: 'Name' },
  key: { locale: 'exportColumns.key', zh: '兑换码', en: 'Code' },
  status: { locale: 'columns.status', zh: '状态', en: 'Status' },
  quota: { locale: 'columns.quota', zh: '额度', en: 'Quota' },
  created_time: { locale: 'columns.createdTime', zh: '创建时间', en: 'Created' },
  redeemed_time: { locale: 'exportColumns.redeemedTime', zh: '兑换时间', en: 'Redeemed' },
  used_user_id: { locale: 'columns.usedBy', zh: '兑换人 ID', en: 'Redeemed by user' },
  expired_time: { locale: 'exportColumns.expiredTime', zh: '过期时间', en: 'Expires' },
} as const satisfies Record<string, ExportHeader>;

export const exportHeaders: Readonly<Record<ExportTable, Readonly<Record<string, ExportHeader>>>> = {
  logs: logExportHeaders,
  users: userExportHeaders,
  channels: channelExportHeaders,
  tokens: tokenExportHeaders,
  redemptions: redemptionExportHeaders,
};
