import type { AnnouncementItem, ApiInfoItem, FaqItem } from './console-panels.ts';
import type { QuotaDisplayType } from './quota.ts';

/** `GET /api/status`: what the console needs before anyone logs in. */
export interface SystemStatus {
  version: string;
  start_time: number;
  system_name: string;
  logo: string;
  footer_html: string;
  server_address: string;
  quota_per_unit: number;
  display_in_currency: boolean;
  display_token_stat: boolean;
  /** new-api's names: the display type in force (DisplayInCurrencyEnabled off reads TOKENS), and its rates. */
  quota_display_type: QuotaDisplayType;
  /** Yuan per US dollar (CNY display). */
  usd_exchange_rate: number;
  custom_currency_symbol: string;
  /** Custom currency units per US dollar (CUSTOM display). */
  custom_currency_exchange_rate: number;
  enable_drawing: boolean;
  enable_task: boolean;
  enable_data_export: boolean;
  data_export_default_time: string;
  default_collapse_sidebar: boolean;
  mj_notify_enabled: boolean;
  chats: unknown;
  chat_link: string;
  chat_link2: string;
  top_up_link: string;
  min_topup: number;
  price: number;
  enable_online_topup: boolean;
  notice: string;
  register_enabled: boolean;
  password_login_enabled: boolean;
  password_register_enabled: boolean;
  email_verification: boolean;
  turnstile_check: boolean;
  turnstile_site_key: string;
  github_oauth: boolean;
  github_client_id: string;
  wechat_login: boolean;
  wechat_qrcode: string;
  telegram_oauth: boolean;
  telegram_bot_name: string;
  linuxdo_oauth: boolean;
  linuxdo_client_id: string;
  self_use_mode_enabled: boolean;
  /** new-api's names: a user agreement / privacy policy is set, so registering asks to accept them. */
  user_agreement_enabled: boolean;
  privacy_policy_enabled: boolean;
  /** `PagedListsEnabled`: the lists answer `{items, total, page, page_size}` from page 1, not arrays from page 0. */
  paged_lists: boolean;
  /** new-api's `DefaultUseAutoGroup`: a new token's group starts as `auto`. */
  default_use_auto_group: boolean;
  /** new-api's name: passkeys are on (the login page offers a password-less passkey login). */
  passkey_login: boolean;
  /** new-api's dashboard panel switches (`console_setting.*_enabled`). */
  announcements_enabled: boolean;
  api_info_enabled: boolean;
  faq_enabled: boolean;
  uptime_kuma_enabled: boolean;
  /** Each panel's items, present only while its switch is on (as new-api answers); announcements newest first. */
  announcements?: AnnouncementItem[];
  api_info?: ApiInfoItem[];
  faq?: FaqItem[];
}
