import {
  defaultCacheRatio,
  defaultCompletionRatio,
  defaultGroupRatio,
  defaultModelPrice,
  defaultModelRatio,
  defaultUserUsableGroups,
} from './default-pricing.ts';

export type OptionKind = 'boolean' | 'integer' | 'number' | 'string' | 'json';

export interface OptionDefinition {
  readonly kind: OptionKind;
  /** The stored string value a fresh database is seeded with. */
  readonly defaultValue: string;
  /** Never returned by `GET /api/option/`, written only when a non-empty value is sent. */
  readonly secret?: boolean;
  readonly min?: number;
  /** A trailing slash is removed before saving (addresses that get paths appended). */
  readonly trimTrailingSlash?: boolean;
  /** For JSON options: the shape the value must have. */
  readonly jsonShape?:
    | 'object'
    | 'array'
    | 'number-map'
    | 'string-map'
    | 'amount-list'
    | 'amount-discounts'
    | 'rate-limit-groups'
    | 'port-list'
    | 'ip-list'
    | 'domain-list'
    | 'response-cache-rules'
    | 'model-fallbacks'
    | 'channel-routing';
}

const bool = (on: boolean): OptionDefinition => ({ kind: 'boolean', defaultValue: on ? 'true' : 'false' });
const int = (value: number, min?: number): OptionDefinition => ({ kind: 'integer', defaultValue: String(value), ...(min === undefined ? {} : { min }) });
const num = (value: number, min?: number): OptionDefinition => ({ kind: 'number', defaultValue: String(value), ...(min === undefined ? {} : { min }) });
const text = (value = ''): OptionDefinition => ({ kind: 'string', defaultValue: value });
const secret = (): OptionDefinition => ({ kind: 'string', defaultValue: '', secret: true });
const address = (): OptionDefinition => ({ kind: 'string', defaultValue: '', trimTrailingSlash: true });
const json = (value: unknown, jsonShape: OptionDefinition['jsonShape']): OptionDefinition => ({
  kind: 'json',
  defaultValue: JSON.stringify(value, null, 2),
  jsonShape,
});

/** new-api's default chat links of the spec's era, in its order, then Cherry Studio (added by new-api later). */
const defaultChats = [
  { 'ChatGPT Next Web 官方示例': 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{address}"}' },
  { 'Lobe Chat 官方示例': 'https://chat-preview.lobehub.com/?settings={"keyVaults":{"openai":{"apiKey":"{key}","baseURL":"{address}/v1"}}}' },
  {
    'AI as Workspace':
      'https://aiaw.app/set-provider?provider={"type":"openai","settings":{"apiKey":"{key}","baseURL":"{address}/v1","compatibility":"strict"}}',
  },
  { 'AMA 问天': 'ama://set-api-key?server={address}&key={key}' },
  { OpenCat: 'opencat://team/join?domain={address}&token={key}' },
  { 'Cherry Studio': 'cherrystudio://providers/api-keys?v=1&data={cherryConfig}' },
];

const defaultSensitiveWords = ['test_sensitive'];

/** new-api's shape: the Epay `type` of each entry is a payment method users may pick (name and color are for display). */
const defaultPayMethods = [
  { name: '支付宝', color: 'rgba(var(--semi-blue-5), 1)', type: 'alipay' },
  { name: '微信', color: 'rgba(var(--semi-green-5), 1)', type: 'wxpay' },
];

/**
 * Every runtime setting kept in the `options` table, with its default. Keys are new-api's, so an
 * imported database keeps its settings. The server validates writes against these definitions.
 */
export const optionDefinitions = {
  // Login and registration
  PasswordLoginEnabled: bool(true),
  PasswordRegisterEnabled: bool(true),
  EmailVerificationEnabled: bool(false),
  RegisterEnabled: bool(true),
  GitHubOAuthEnabled: bool(false),
  LinuxDOOAuthEnabled: bool(false),
  WeChatAuthEnabled: bool(false),
  TelegramOAuthEnabled: bool(false),
  TurnstileCheckEnabled: bool(false),
  /** Administrators (and root) without a second factor are sent to enrol one and refused admin routes until they do. */
  TwoFactorRequiredForAdmins: bool(false),
  /** new-api's passkey settings: passkeys on; RP ID and origins (comma-separated) when not derived from ServerAddress or the request. */
  'passkey.enabled': bool(false),
  'passkey.rp_display_name': text(),
  'passkey.rp_id': text(),
  'passkey.origins': text(),
  'passkey.allow_insecure_origin': bool(false),
  'passkey.user_verification': text('preferred'),
  'passkey.attachment_preference': text(),
  // Email restrictions
  EmailDomainRestrictionEnabled: bool(false),
  EmailAliasRestrictionEnabled: bool(false),
  EmailDomainWhitelist: text('gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com'),
  // SMTP
  SMTPServer: text(),
  SMTPPort: int(587, 1),
  SMTPAccount: text(),
  SMTPFrom: text(),
  SMTPToken: secret(),
  SMTPSSLEnabled: bool(false),
  // General and proxy
  ServerAddress: address(),
  WorkerUrl: address(),
  WorkerValidKey: secret(),
  Notice: text(),
  // Payment
  EpayId: text(),
  EpayKey: secret(),
  Price: num(7.3, 0),
  MinTopUp: int(1, 1),
  TopupGroupRatio: json({ default: 1, vip: 1, svip: 1 }, 'number-map'),
  PayAddress: address(),
  CustomCallbackAddress: address(),
  PayMethods: json(defaultPayMethods, 'array'),
  /** new-api's payment_setting: the preset amounts the wallet offers, and amount → price factor (0.9 = 10 % off) for those amounts. */
  'payment_setting.amount_options': json([10, 20, 50, 100, 200, 500], 'amount-list'),
  'payment_setting.amount_discount': json({}, 'amount-discounts'),
  /**
   * new-api's fetch_setting: the policy for requests the server sends to addresses users and
   * administrators type (webhooks, the WeChat server, task images). Private ranges are refused unless
   * allowed or on the IP allow list; the lists hold `example.com`/`*.example.com`, `10.0.0.1`/`10.0.0.0/8`,
   * and ports `80`/`8000-9000` (an empty port list allows every port).
   */
  'fetch_setting.enable_ssrf_protection': bool(true),
  'fetch_setting.allow_private_ip': bool(false),
  'fetch_setting.domain_filter_mode': bool(false),
  'fetch_setting.domain_list': json([], 'domain-list'),
  'fetch_setting.ip_filter_mode': bool(false),
  'fetch_setting.ip_list': json([], 'ip-list'),
  'fetch_setting.allowed_ports': json(['80', '443', '8080', '8443'], 'port-list'),
  'fetch_setting.apply_ip_filter_for_domain': bool(true),
  // Third-party logins
  GitHubClientId: text(),
  GitHubClientSecret: secret(),
  WeChatServerAddress: address(),
  WeChatServerToken: secret(),
  WeChatAccountQRCodeImageURL: text(),
  TurnstileSiteKey: text(),
  TurnstileSecretKey: secret(),
  TelegramBotToken: secret(),
  TelegramBotName: text(),
  LinuxDOClientId: text(),
  LinuxDOClientSecret: secret(),
  // Display and content
  SystemName: text('Switchboard'),
  Logo: text(),
  Footer: text(),
  About: text(),
  HomePageContent: text(),
  /** new-api's legal settings (Markdown): when either is set, registering requires accepting them. */
  'legal.user_agreement': text(),
  'legal.privacy_policy': text(),
  /**
   * new-api's dashboard panels (`console_setting.*`): announcements, API addresses, FAQ and Uptime Kuma
   * status groups, each a JSON array kept as text ('' for none, as new-api stores it), and the switch
   * that shows each panel. The server checks the lists as new-api does (`options/console-settings-rules.ts`).
   */
  'console_setting.announcements': text(),
  'console_setting.announcements_enabled': bool(true),
  'console_setting.api_info': text(),
  'console_setting.api_info_enabled': bool(true),
  'console_setting.faq': text(),
  'console_setting.faq_enabled': bool(true),
  'console_setting.uptime_kuma_groups': text(),
  'console_setting.uptime_kuma_enabled': bool(true),
  /** new-api's API-key usage tips template (a JSON object as text, '' for none); stored for its console. */
  'console_setting.api_key_usage_tips': text(),
  TopUpLink: text(),
  ChatLink: text(),
  ChatLink2: text(),
  Chats: json(defaultChats, 'array'),
  QuotaPerUnit: num(500_000, 1),
  RetryTimes: int(0, 0),
  DisplayInCurrencyEnabled: bool(true),
  DisplayTokenStatEnabled: bool(true),
  /** new-api's display of amounts: USD, CNY (× USDExchangeRate), TOKENS (raw quota) or CUSTOM (symbol × rate); DisplayInCurrencyEnabled off means TOKENS. */
  'general_setting.quota_display_type': text('USD'),
  'general_setting.custom_currency_symbol': text('¤'),
  /** How many units of the custom currency one US dollar is. */
  'general_setting.custom_currency_exchange_rate': num(1, 0),
  /** Yuan per US dollar for the CNY display. */
  USDExchangeRate: num(7.3, 0),
  DefaultCollapseSidebar: bool(false),
  /** The user, token, channel, code, drawing and task lists answer new-api's later `{items, total, page, page_size}` from page 1 (off: arrays from page 0). */
  PagedListsEnabled: bool(false),
  /** new-api's ratio sharing: `GET /api/ratio_config` answers the model ratios and prices to other instances. */
  ExposeRatioEnabled: bool(false),
  // Drawing and tasks
  DrawingEnabled: bool(true),
  TaskEnabled: bool(true),
  MjNotifyEnabled: bool(false),
  MjAccountFilterEnabled: bool(false),
  MjForwardUrlEnabled: bool(true),
  MjModeClearEnabled: bool(true),
  MjActionCheckSuccessEnabled: bool(true),
  // Sensitive words
  CheckSensitiveEnabled: bool(false),
  CheckSensitiveOnPromptEnabled: bool(true),
  CheckSensitiveOnCompletionEnabled: bool(false),
  StopOnSensitiveEnabled: bool(true),
  SensitiveWords: text(defaultSensitiveWords.join('\n')),
  // Logging and dashboard
  LogConsumeEnabled: bool(true),
  LogRetentionDays: int(0, 0),
  /** Store request and response bodies of every relayed request (off: only of tokens whose log_payload switch is on). */
  LogPayloadEnabled: bool(false),
  /** Days payload rows are kept; the retention job deletes older ones. */
  LogPayloadRetentionDays: int(7, 1),
  /** Bytes kept of each body (request and response apart); what is past it is cut and flagged. */
  LogPayloadMaxBytes: int(65_536, 1024),
  DataExportEnabled: bool(true),
  DataExportInterval: int(5, 1),
  DataExportDefaultTime: text('hour'),
  // Monitoring
  ChannelDisableThreshold: num(5, 0),
  QuotaRemindThreshold: int(1000, 0),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  /** Minutes between automatic balance refreshes of enabled channels; 0 turns it off (new-api's CHANNEL_UPDATE_FREQUENCY). */
  ChannelUpdateFrequency: int(0, 0),
  // Periodic channel test (new-api's monitor_setting; CHANNEL_TEST_FREQUENCY minutes in the environment wins)
  'monitor_setting.auto_test_channel_enabled': bool(false),
  'monitor_setting.auto_test_channel_minutes': int(10, 1),
  /** 'scheduled_all' tests every enabled and auto-disabled channel; 'passive_recovery' only those waiting to recover. */
  'monitor_setting.channel_test_mode': text('scheduled_all'),
  // Circuit breaker per channel and per key (relay/circuit-breaker): skipped while open, one probe when half-open
  ChannelBreakerEnabled: bool(true),
  /** Consecutive failures that open a channel's breaker; 0 turns the rule off. */
  ChannelBreakerConsecutiveFailures: int(5, 0),
  /** Error rate (percent) over the window that opens it; 0 turns the rule off. */
  ChannelBreakerErrorRatePercent: int(50, 0),
  ChannelBreakerMinimumRequests: int(20, 1),
  ChannelBreakerWindowSeconds: int(60, 1),
  ChannelBreakerCooldownSeconds: int(30, 1),
  /** How a priority tier's channel is chosen, globally and per group (contracts/channel-routing.ts, docs/routing.md). */
  ChannelRoutingStrategy: json({ default: 'weighted', groups: {} }, 'channel-routing'),
  // new-api's per-user model request limit on /v1 and /v1beta (limits/model-request-limit.ts)
  ModelRequestRateLimitEnabled: bool(false),
  ModelRequestRateLimitDurationMinutes: int(1, 1),
  /** Requests per window, failed ones included; 0 = unlimited. */
  ModelRequestRateLimitCount: int(0, 0),
  /** Successful requests per window. */
  ModelRequestRateLimitSuccessCount: int(1000, 1),
  /** Per-group overrides `{"group": [total, success]}` (total ≥ 0, success ≥ 1). */
  ModelRequestRateLimitGroup: json({}, 'rate-limit-groups'),
  // Quota
  QuotaForNewUser: int(0, 0),
  PreConsumedQuota: int(500, 0),
  /**
   * The most output tokens a model may produce, per model name, for requests that set no max_tokens:
   * sizes what a request claims on a balance (billing/output-limits.ts). Unlisted models use the
   * built-in table of known limits, then DefaultMaxOutputTokens.
   */
  ModelMaxOutputTokens: json({}, 'number-map'),
  DefaultMaxOutputTokens: int(16_384, 1),
  /** Refuse paid relay calls (503) while charges cannot be written to the quota journal (a full or read-only disk). */
  RefuseWhenJournalFailing: bool(false),
  QuotaForInviter: int(0, 0),
  QuotaForInvitee: int(0, 0),
  StreamCacheQueueLength: int(0, 0),
  // Pricing and groups
  ModelPrice: json(defaultModelPrice, 'number-map'),
  ModelRatio: json(defaultModelRatio, 'number-map'),
  CompletionRatio: json(defaultCompletionRatio, 'number-map'),
  CacheRatio: json(defaultCacheRatio, 'number-map'),
  GroupRatio: json(defaultGroupRatio, 'number-map'),
  UserUsableGroups: json(defaultUserUsableGroups, 'string-map'),
  SelfUseModeEnabled: bool(false),
  // Relay pricing extras (billing/pricing.ts): audio tokens, cache writes, per user-group special ratios
  AudioRatio: json({ 'gpt-4o-audio-preview': 16, 'gpt-4o-mini-audio-preview': 66.67, 'gpt-4o-realtime-preview': 8 }, 'number-map'),
  AudioCompletionRatio: json({ 'gpt-4o-audio-preview': 2, 'gpt-4o-mini-audio-preview': 2, 'gpt-4o-realtime-preview': 2 }, 'number-map'),
  CreateCacheRatio: json({}, 'number-map'),
  /**
   * new-api's tool prices in US dollars per 1,000 calls, the operator's overrides of the built-in
   * ones (web_search 10): `"web_search"` for every model, `"web_search:claude-opus*"` for a prefix.
   */
  'tool_price_setting.prices': json({}, 'number-map'),
  GroupGroupRatio: json({}, 'object'),
  /** new-api's image-input token ratio per model. */
  ImageRatio: json({ 'gpt-image-1': 2 }, 'number-map'),
  /**
   * new-api's per user-group changes to the usable groups: for users of the outer key, `"+:g"` or `"g"`
   * offers group g (with the value as its label), `"-:g"` withdraws it.
   */
  'group_ratio_setting.group_special_usable_group': json({ vip: { append_1: 'vip_special_group_1', '-:remove_1': 'vip_removed_group_1' } }, 'object'),
  /** new-api's `auto` token group: the groups it tries in order; whether new tokens start in it. */
  AutoGroups: json(['default'], 'array'),
  DefaultUseAutoGroup: bool(false),
  /**
   * The response cache (off while empty): `[{"model": "gpt-4o*", "ttl": 300, "hit_ratio": 0.1, "scope": "shared"}]`,
   * optional `max_bytes`, `tools` (cache turns that carry tools) and `n` (cache `n > 1`). The first rule whose model matches applies.
   */
  ResponseCacheRules: json([], 'response-cache-rules'),
  /** Ordered alternatives per model, tried when no channel serves it or every attempt failed retryably: `{"gpt-5": ["gpt-5-mini"]}`. */
  ModelFallbacks: json({}, 'model-fallbacks'),
  /** The larger-context model a request moves to when a channel refuses it for context length: `{"gpt-4o-mini": "gpt-4.1"}`. */
  ContextWindowFallbacks: json({}, 'string-map'),
} as const satisfies Record<string, OptionDefinition>;

export type OptionKey = keyof typeof optionDefinitions;

export const optionKeys = Object.keys(optionDefinitions) as OptionKey[];

export function isOptionKey(key: string): key is OptionKey {
  return Object.hasOwn(optionDefinitions, key);
}
