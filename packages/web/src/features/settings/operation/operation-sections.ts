import type { OptionField } from '../lib/option-field.ts';

const switchOf = (key: string): OptionField => ({ key, kind: 'switch' });
const count = (key: string, min = 0): OptionField => ({ key, kind: 'number', min });

/** The operation tab's plain sections (the log and model-pricing sections have their own components). */
export const operationSections: ReadonlyArray<{ id: string; fields: readonly OptionField[] }> = [
  {
    id: 'general',
    fields: [
      // new-api's "self-use mode": models without a price may be called (the first-run setup sets it too).
      { key: 'SelfUseModeEnabled', kind: 'switch', help: true },
      { key: 'TopUpLink', kind: 'text' },
      { key: 'ChatLink', kind: 'text' },
      { key: 'ChatLink2', kind: 'text' },
      { key: 'QuotaPerUnit', kind: 'number', min: 0, decimal: true },
      count('RetryTimes'),
      switchOf('DisplayInCurrencyEnabled'),
      { key: 'general_setting.quota_display_type', kind: 'select', choices: ['USD', 'CNY', 'TOKENS', 'CUSTOM'], help: true },
      { key: 'USDExchangeRate', kind: 'number', min: 0, decimal: true },
      { key: 'general_setting.custom_currency_symbol', kind: 'text' },
      { key: 'general_setting.custom_currency_exchange_rate', kind: 'number', min: 0, decimal: true, help: true },
      switchOf('DisplayTokenStatEnabled'),
      switchOf('DefaultCollapseSidebar'),
    ],
  },
  {
    id: 'drawing',
    fields: ['DrawingEnabled', 'MjNotifyEnabled', 'MjAccountFilterEnabled', 'MjForwardUrlEnabled', 'MjModeClearEnabled', 'MjActionCheckSuccessEnabled'].map(
      switchOf,
    ),
  },
  {
    id: 'sensitive',
    fields: [
      ...['CheckSensitiveEnabled', 'CheckSensitiveOnPromptEnabled', 'CheckSensitiveOnCompletionEnabled', 'StopOnSensitiveEnabled'].map(switchOf),
      { key: 'SensitiveWords', kind: 'textarea', rows: 4, help: true },
    ],
  },
  {
    id: 'dashboard',
    fields: [
      switchOf('DataExportEnabled'),
      { key: 'DataExportInterval', kind: 'number', min: 1, help: true },
      { key: 'DataExportDefaultTime', kind: 'select', choices: ['hour', 'day', 'week'] },
    ],
  },
  {
    id: 'monitoring',
    fields: [
      { key: 'ChannelDisableThreshold', kind: 'number', min: 0, decimal: true, help: true },
      count('QuotaRemindThreshold'),
      switchOf('AutomaticDisableChannelEnabled'),
      switchOf('AutomaticEnableChannelEnabled'),
      switchOf('monitor_setting.auto_test_channel_enabled'),
      { key: 'monitor_setting.auto_test_channel_minutes', kind: 'number', min: 1, help: true },
      { key: 'monitor_setting.channel_test_mode', kind: 'select', choices: ['scheduled_all', 'passive_recovery'], help: true },
    ],
  },
  {
    id: 'breaker',
    fields: [
      { key: 'ChannelBreakerEnabled', kind: 'switch', help: true },
      { key: 'ChannelBreakerConsecutiveFailures', kind: 'number', min: 0, help: true },
      { key: 'ChannelBreakerErrorRatePercent', kind: 'number', min: 0, help: true },
      count('ChannelBreakerMinimumRequests', 1),
      count('ChannelBreakerWindowSeconds', 1),
      count('ChannelBreakerCooldownSeconds', 1),
    ],
  },
  {
    // How the relay chooses inside a priority tier, globally and per group (docs/routing.md).
    id: 'routing',
    fields: [{ key: 'ChannelRoutingStrategy', kind: 'json', help: true }],
  },
  {
    // new-api's per-user model request limit on /v1 and /v1beta (its "rate limit" settings).
    id: 'rateLimit',
    fields: [
      switchOf('ModelRequestRateLimitEnabled'),
      { key: 'ModelRequestRateLimitDurationMinutes', kind: 'number', min: 1, help: true },
      { key: 'ModelRequestRateLimitCount', kind: 'number', min: 0, help: true },
      { key: 'ModelRequestRateLimitSuccessCount', kind: 'number', min: 1, help: true },
      { key: 'ModelRequestRateLimitGroup', kind: 'json', help: true },
    ],
  },
  {
    id: 'quota',
    fields: [
      count('QuotaForNewUser'),
      count('PreConsumedQuota'),
      count('QuotaForInviter'),
      count('QuotaForInvitee'),
      count('StreamCacheQueueLength'),
      { key: 'DefaultMaxOutputTokens', kind: 'number', min: 1, help: true },
      { key: 'ModelMaxOutputTokens', kind: 'json', help: true },
      { key: 'RefuseWhenJournalFailing', kind: 'switch', help: true },
    ],
  },
  {
    id: 'chats',
    fields: [{ key: 'Chats', kind: 'json', help: true }],
  },
  {
    id: 'groups',
    fields: [
      { key: 'GroupRatio', kind: 'json', help: true },
      { key: 'UserUsableGroups', kind: 'json', help: true },
      { key: 'group_ratio_setting.group_special_usable_group', kind: 'json', help: true },
      { key: 'AutoGroups', kind: 'json', help: true },
      switchOf('DefaultUseAutoGroup'),
    ],
  },
  {
    // The response cache and the fallback chains (docs/response-cache-and-fallbacks.md).
    id: 'cacheAndFallbacks',
    fields: [
      { key: 'ResponseCacheRules', kind: 'json', help: true },
      { key: 'ModelFallbacks', kind: 'json', help: true },
      { key: 'ContextWindowFallbacks', kind: 'json', help: true },
    ],
  },
];
