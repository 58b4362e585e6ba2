import type { LocalizedMessage } from '../../core/messages/catalogue.ts';

/** Answers of `PUT /api/user/setting`, in new-api's wording. */
export const notifySettingsMessages = {
  invalidType: { zh: '无效的预警类型', en: 'Invalid warning type' },
  thresholdAboveZero: { zh: '预警阈值必须大于 0', en: 'Warning threshold must be greater than 0' },
  webhookEmpty: { zh: 'Webhook地址不能为空', en: 'Webhook URL cannot be empty' },
  webhookInvalid: { zh: '无效的Webhook地址', en: 'Invalid Webhook URL' },
  emailInvalid: { zh: '无效的邮箱地址', en: 'Invalid email address' },
  barkUrlEmpty: { zh: 'Bark推送URL不能为空', en: 'Bark push URL cannot be empty' },
  barkUrlInvalid: { zh: '无效的Bark推送URL', en: 'Invalid Bark push URL' },
  gotifyUrlEmpty: { zh: 'Gotify服务器地址不能为空', en: 'Gotify server URL cannot be empty' },
  gotifyTokenEmpty: { zh: 'Gotify令牌不能为空', en: 'Gotify token cannot be empty' },
  gotifyUrlInvalid: { zh: '无效的Gotify服务器地址', en: 'Invalid Gotify server URL' },
  urlMustBeHttp: { zh: 'URL必须以http://或https://开头', en: 'URL must start with http:// or https://' },
  saved: { zh: '设置已更新', en: 'Settings updated' },
} as const satisfies Record<string, LocalizedMessage>;
