import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

export const optionMessages = {
  unknownKey: { zh: '未知的配置项：{key}', en: 'Unknown setting: {key}' },
  notBoolean: { zh: '{key} 只能是 true 或 false', en: '{key} must be true or false' },
  notInteger: { zh: '{key} 必须是整数', en: '{key} must be an integer' },
  notNumber: { zh: '{key} 必须是数字', en: '{key} must be a number' },
  belowMinimum: { zh: '{key} 不能小于 {min}', en: '{key} must be at least {min}' },
  aboveMaximum: { zh: '{key} 不能大于 {max}', en: '{key} must be at most {max}' },
  notJson: { zh: '{key} 不是合法的 JSON 字符串', en: '{key} is not a valid JSON string' },
  topupGroupRatioNotJson: { zh: '充值分组倍率不是合法的 JSON 字符串', en: 'The top-up group ratio is not a valid JSON string' },
  wrongJsonShape: { zh: '{key} 的 JSON 格式不正确：{shape}', en: '{key} has the wrong JSON shape: {shape}' },
  routingStrategyInvalid: {
    zh: '{key} 格式不正确（{fault}）：应为 {"default": 策略, "groups": {"分组": 策略}}，策略为 {strategies} 之一',
    en: '{key} is not valid ({fault}): expected {"default": strategy, "groups": {"group": strategy}} with strategies among {strategies}',
  },
  notOneOf: { zh: '{key} 只能是 {choices} 之一', en: '{key} must be one of {choices}' },
  gitHubNeedsConfig: {
    zh: '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！',
    en: 'Cannot enable GitHub OAuth: fill in the GitHub Client Id and Client Secret first',
  },
  linuxDoNeedsConfig: {
    zh: '无法启用 LinuxDO OAuth，请先填入 LinuxDO Client Id 以及 LinuxDO Client Secret！',
    en: 'Cannot enable LinuxDO OAuth: fill in the LinuxDO Client Id and Client Secret first',
  },
  weChatNeedsConfig: {
    zh: '无法启用微信登录，请先填入微信登录相关配置信息！',
    en: 'Cannot enable WeChat login: fill in the WeChat server address and token first',
  },
  telegramNeedsConfig: {
    zh: '无法启用 Telegram OAuth，请先填入 Telegram Bot Token 以及 Bot 名称！',
    en: 'Cannot enable Telegram login: fill in the bot token and bot name first',
  },
  turnstileNeedsConfig: {
    zh: '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！',
    en: 'Cannot enable Turnstile: fill in the site key and secret key first',
  },
  emailVerificationNeedsConfig: { zh: '无法启用邮箱验证，请先填入 SMTP 相关配置信息！', en: 'Cannot enable email verification: configure SMTP first' },
  notWebLink: { zh: '{key} 必须是以 http:// 或 https:// 开头的链接', en: '{key} must be a link starting with http:// or https://' },
  notImageSource: {
    zh: '{key} 必须是以 http:// 或 https:// 开头的链接，或本站路径',
    en: '{key} must be a link starting with http:// or https://, or a path on this site',
  },
  unsafeChatLink: {
    zh: '聊天链接 {name} 只能是 http(s) 链接或这些应用的链接：{schemes}',
    en: 'Chat link {name} must be an http(s) link or an app link: {schemes}',
  },
  emailDomainNeedsConfig: {
    zh: '无法启用邮箱域名限制，请先填入限制的邮箱域名！',
    en: 'Cannot enable the email domain restriction: fill in the allowed domains first',
  },
} as const satisfies Record<string, LocalizedMessage>;
