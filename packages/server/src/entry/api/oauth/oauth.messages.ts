import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

export const oauthMessages = {
  gitHubDisabled: { zh: '管理员未开启通过 GitHub 登录以及注册', en: 'Administrator has not enabled GitHub login and sign-up' },
  linuxDoDisabled: { zh: '管理员未开启通过 LinuxDO 登录以及注册', en: 'Administrator has not enabled LinuxDO login and sign-up' },
  weChatDisabled: { zh: '管理员未开启通过微信登录以及注册', en: 'Administrator has not enabled WeChat login and sign-up' },
  telegramDisabled: { zh: '管理员未开启通过 Telegram 登录以及注册', en: 'Administrator has not enabled Telegram login' },
  stateInvalid: { zh: 'state 为空或不一致，请重新登录', en: 'The OAuth state is missing, expired or does not match; start the login again' },
  providerFailed: { zh: '{provider} 授权失败，请重试', en: '{provider} authorization failed, try again' },
  gitHubAlreadyBound: { zh: '该 GitHub 账户已被绑定', en: 'GitHub account already bound' },
  linuxDoAlreadyBound: { zh: '该 LinuxDO 账户已被绑定', en: 'LinuxDO account already bound' },
  weChatAlreadyBound: { zh: '该微信账号已被绑定', en: 'WeChat account already bound' },
  telegramAlreadyBound: { zh: '该 Telegram 账户已被绑定', en: 'Telegram account already bound' },
  telegramNotBound: { zh: '该 Telegram 账户未绑定', en: 'This Telegram account is not bound to any user' },
  telegramInvalid: { zh: 'Telegram 登录数据无效或已过期', en: 'The Telegram login data is invalid or expired' },
  weChatCodeInvalid: { zh: '验证码错误或已过期', en: 'Verification code is incorrect or expired' },
  weChatServerError: { zh: '微信服务器返回错误：{detail}', en: 'The WeChat server answered an error: {detail}' },
  emailRequired: { zh: '请输入邮箱！', en: 'Enter the email address' },
  emailCodeRequired: { zh: '请输入邮箱验证码！', en: 'Enter the email verification code' },
  codeRequired: { zh: '验证码不能为空', en: 'The code is required' },
} as const satisfies Record<string, LocalizedMessage>;
