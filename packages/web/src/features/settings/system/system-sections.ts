import type { OptionField } from '../lib/option-field.ts';

const switchOf = (key: string): OptionField => ({ key, kind: 'switch' });
const text = (key: string): OptionField => ({ key, kind: 'text' });
const secret = (key: string): OptionField => ({ key, kind: 'secret' });
const address = (key: string): OptionField => ({ key, kind: 'text', trimTrailingSlash: true });

export const serverAddressFields: readonly OptionField[] = [address('ServerAddress')];
export const workerFields: readonly OptionField[] = [address('WorkerUrl'), secret('WorkerValidKey')];
export const paymentFields: readonly OptionField[] = [
  address('PayAddress'),
  text('EpayId'),
  secret('EpayKey'),
  { key: 'Price', kind: 'number', min: 0, decimal: true },
  { key: 'MinTopUp', kind: 'number', min: 1 },
  text('CustomCallbackAddress'),
  { key: 'TopupGroupRatio', kind: 'json', help: true },
  { key: 'payment_setting.amount_options', kind: 'json', help: true },
  { key: 'payment_setting.amount_discount', kind: 'json', help: true },
];
/** new-api's legal documents, Markdown shown at registration (an empty one is not shown nor required). */
export const legalFields: readonly OptionField[] = [
  { key: 'legal.user_agreement', kind: 'textarea', rows: 8, help: true },
  { key: 'legal.privacy_policy', kind: 'textarea', rows: 8, help: true },
];
export const loginSwitchFields: readonly OptionField[] = [
  'PasswordLoginEnabled',
  'PasswordRegisterEnabled',
  'EmailVerificationEnabled',
  'RegisterEnabled',
  'GitHubOAuthEnabled',
  'LinuxDOOAuthEnabled',
  'WeChatAuthEnabled',
  'TelegramOAuthEnabled',
  'TurnstileCheckEnabled',
].map(switchOf);
export const emailDomainFields: readonly OptionField[] = [
  switchOf('EmailDomainRestrictionEnabled'),
  switchOf('EmailAliasRestrictionEnabled'),
  { key: 'EmailDomainWhitelist', kind: 'textarea', rows: 2, help: true },
];
export const smtpFields: readonly OptionField[] = [
  text('SMTPServer'),
  { key: 'SMTPPort', kind: 'number', min: 1, help: true },
  text('SMTPAccount'),
  text('SMTPFrom'),
  secret('SMTPToken'),
  { key: 'SMTPSSLEnabled', kind: 'switch', help: true },
];

/** Port 465 speaks TLS from the first byte, so SSL is saved as on there whatever the switch says. */
export function forceSslAtPort465(draft: Record<string, string>): Record<string, string> {
  return draft.SMTPPort === '465' ? { ...draft, SMTPSSLEnabled: 'true' } : draft;
}
/** Second factors: required for administrators, and new-api's passkey settings (empty: from the server address or the request). */
export const securityFields: readonly OptionField[] = [
  { key: 'TwoFactorRequiredForAdmins', kind: 'switch', help: true },
  { key: 'passkey.enabled', kind: 'switch', help: true },
  text('passkey.rp_display_name'),
  { key: 'passkey.rp_id', kind: 'text', help: true },
  { key: 'passkey.origins', kind: 'text', help: true },
  { key: 'passkey.allow_insecure_origin', kind: 'switch', help: true },
  { key: 'passkey.user_verification', kind: 'select', choices: ['required', 'preferred', 'discouraged'], help: true },
  { key: 'passkey.attachment_preference', kind: 'select', choices: ['', 'platform', 'cross-platform'] },
];
/**
 * new-api's fetch_setting: where the server may send requests for addresses users and administrators
 * type (webhooks, the WeChat server, task images). The lists are JSON arrays, as new-api stores them.
 */
export const fetchPolicyFields: readonly OptionField[] = [
  { key: 'fetch_setting.enable_ssrf_protection', kind: 'switch', help: true },
  { key: 'fetch_setting.allow_private_ip', kind: 'switch', help: true },
  { key: 'fetch_setting.allowed_ports', kind: 'json', rows: 2, help: true },
  { key: 'fetch_setting.domain_filter_mode', kind: 'switch', help: true },
  { key: 'fetch_setting.domain_list', kind: 'json', rows: 3, help: true },
  { key: 'fetch_setting.ip_filter_mode', kind: 'switch', help: true },
  { key: 'fetch_setting.ip_list', kind: 'json', rows: 3, help: true },
  { key: 'fetch_setting.apply_ip_filter_for_domain', kind: 'switch', help: true },
];
/**
 * new-api's dashboard panels (shown on the home page): each switch, then its list as the JSON array
 * new-api stores (the help under each field shows an item; the server checks them as new-api does).
 */
export const dashboardPanelFields: readonly OptionField[] = [
  switchOf('console_setting.announcements_enabled'),
  { key: 'console_setting.announcements', kind: 'json', rows: 5, help: true },
  switchOf('console_setting.api_info_enabled'),
  { key: 'console_setting.api_info', kind: 'json', rows: 4, help: true },
  switchOf('console_setting.faq_enabled'),
  { key: 'console_setting.faq', kind: 'json', rows: 4, help: true },
  switchOf('console_setting.uptime_kuma_enabled'),
  { key: 'console_setting.uptime_kuma_groups', kind: 'json', rows: 4, help: true },
];
/** How Switchboard answers tools written for new-api: the list dialect, and sharing ratios with other instances. */
export const compatibilityFields: readonly OptionField[] = [
  { key: 'PagedListsEnabled', kind: 'switch', help: true },
  { key: 'ExposeRatioEnabled', kind: 'switch', help: true },
];
export const gitHubFields: readonly OptionField[] = [text('GitHubClientId'), secret('GitHubClientSecret')];
export const weChatFields: readonly OptionField[] = [address('WeChatServerAddress'), secret('WeChatServerToken'), text('WeChatAccountQRCodeImageURL')];
export const telegramFields: readonly OptionField[] = [text('TelegramBotName'), secret('TelegramBotToken')];
export const turnstileFields: readonly OptionField[] = [text('TurnstileSiteKey'), secret('TurnstileSecretKey')];
export const linuxDoFields: readonly OptionField[] = [text('LinuxDOClientId'), secret('LinuxDOClientSecret')];
