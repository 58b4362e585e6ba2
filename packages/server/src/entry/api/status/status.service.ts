import { effectiveQuotaDisplayType, type SystemStatus } from '@switchboard/contracts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { hasPrivacyPolicy, hasUserAgreement } from '../register/legal-consent.ts';
import { announcementsOf, apiInfoOf, faqOf } from '../../../domain/options/console-settings.ts';

export interface StatusContext {
  version: string;
  startTime: number;
}

/** The public status object of the spec, built from options on each call (options are in memory). */
export function buildSystemStatus(options: OptionStore, context: StatusContext): SystemStatus {
  const text = (key: Parameters<OptionStore['get']>[0]) => options.get(key);
  const flag = (key: Parameters<OptionStore['get']>[0]) => options.getBoolean(key);
  return {
    version: context.version,
    start_time: context.startTime,
    system_name: text('SystemName'),
    logo: text('Logo'),
    footer_html: text('Footer'),
    server_address: text('ServerAddress'),
    quota_per_unit: options.getNumber('QuotaPerUnit'),
    display_in_currency: flag('DisplayInCurrencyEnabled'),
    display_token_stat: flag('DisplayTokenStatEnabled'),
    quota_display_type: effectiveQuotaDisplayType(text('general_setting.quota_display_type'), flag('DisplayInCurrencyEnabled')),
    usd_exchange_rate: options.getNumber('USDExchangeRate'),
    custom_currency_symbol: text('general_setting.custom_currency_symbol'),
    custom_currency_exchange_rate: options.getNumber('general_setting.custom_currency_exchange_rate'),
    enable_drawing: flag('DrawingEnabled'),
    enable_task: flag('TaskEnabled'),
    enable_data_export: flag('DataExportEnabled'),
    data_export_default_time: text('DataExportDefaultTime'),
    default_collapse_sidebar: flag('DefaultCollapseSidebar'),
    mj_notify_enabled: flag('MjNotifyEnabled'),
    chats: options.getJson('Chats'),
    chat_link: text('ChatLink'),
    chat_link2: text('ChatLink2'),
    top_up_link: text('TopUpLink'),
    min_topup: options.getNumber('MinTopUp'),
    price: options.getNumber('Price'),
    enable_online_topup: text('PayAddress') !== '' && text('EpayId') !== '' && text('EpayKey') !== '',
    notice: text('Notice'),
    register_enabled: flag('RegisterEnabled'),
    password_login_enabled: flag('PasswordLoginEnabled'),
    password_register_enabled: flag('PasswordRegisterEnabled'),
    email_verification: flag('EmailVerificationEnabled'),
    turnstile_check: flag('TurnstileCheckEnabled'),
    turnstile_site_key: text('TurnstileSiteKey'),
    github_oauth: flag('GitHubOAuthEnabled'),
    github_client_id: text('GitHubClientId'),
    wechat_login: flag('WeChatAuthEnabled'),
    wechat_qrcode: text('WeChatAccountQRCodeImageURL'),
    telegram_oauth: flag('TelegramOAuthEnabled'),
    telegram_bot_name: text('TelegramBotName'),
    linuxdo_oauth: flag('LinuxDOOAuthEnabled'),
    linuxdo_client_id: text('LinuxDOClientId'),
    self_use_mode_enabled: flag('SelfUseModeEnabled'),
    user_agreement_enabled: hasUserAgreement(options),
    privacy_policy_enabled: hasPrivacyPolicy(options),
    paged_lists: flag('PagedListsEnabled'),
    default_use_auto_group: flag('DefaultUseAutoGroup'),
    passkey_login: flag('passkey.enabled'),
    ...dashboardPanels(options),
  };
}

/** new-api's dashboard panels: every switch, and each list only while its panel is on. */
function dashboardPanels(options: OptionStore) {
  const on = {
    announcements: options.getBoolean('console_setting.announcements_enabled'),
    apiInfo: options.getBoolean('console_setting.api_info_enabled'),
    faq: options.getBoolean('console_setting.faq_enabled'),
  };
  return {
    announcements_enabled: on.announcements,
    api_info_enabled: on.apiInfo,
    faq_enabled: on.faq,
    uptime_kuma_enabled: options.getBoolean('console_setting.uptime_kuma_enabled'),
    ...(on.announcements ? { announcements: announcementsOf(options) } : {}),
    ...(on.apiInfo ? { api_info: apiInfoOf(options) } : {}),
    ...(on.faq ? { faq: faqOf(options) } : {}),
  };
}
