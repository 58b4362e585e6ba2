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
];
export const loginSwitchFields: readonly OptionField[] = ['PasswordLoginEnabled', 'PasswordRegisterEnabled', 'EmailVerificationEnabled', 'RegisterEnabled', 'GitHubOAuthEnabled', 'LinuxDOOAuthEnabled', 'WeChatAuthEnabled', 'TelegramOAuthEnabled', 'TurnstileCheckEnabled'].map(switchOf);
export const emailDomainFields: readonly OptionField[] = [switchOf('EmailDomainRestrictionEnabled'), switchOf('EmailAliasRestrictionEnabled'), { key: 'EmailDomainWhitelist', kind: 'textarea', rows: 2, help: true }];
export const smtpFields: readonly OptionField[] = [text('SMTPServer'), { key: 'SMTPPort', kind: 'number', min: 1 }, text('SMTPAccount'), text('SMTPFrom'), secret('SMTPToken'), switchOf('SMTPSSLEnabled')];
export const gitHubFields: readonly OptionField[] = [text('GitHubClientId'), secret('GitHubClientSecret')];
export const weChatFields: readonly OptionField[] = [address('WeChatServerAddress'), secret('WeChatServerToken'), text('WeChatAccountQRCodeImageURL')];
export const telegramFields: readonly OptionField[] = [text('TelegramBotName'), secret('TelegramBotToken')];
export const turnstileFields: readonly OptionField[] = [text('TurnstileSiteKey'), secret('TurnstileSecretKey')];
export const linuxDoFields: readonly OptionField[] = [text('LinuxDOClientId'), secret('LinuxDOClientSecret')];
