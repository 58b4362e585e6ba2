import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

/** Messages of mail codes, password reset, Turnstile and email rules. */
export const verificationMessages = {
  turnstileEmpty: { zh: 'Turnstile token 为空', en: 'Turnstile token is empty' },
  turnstileFailed: { zh: 'Turnstile 校验失败，请刷新重试！', en: 'Turnstile verification failed, refresh and try again' },
  invalidEmail: { zh: '无效的邮箱地址', en: 'Invalid email address' },
  emailDomainNotAllowed: {
    zh: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
    en: 'The administrator restricts email domains and yours is not on the whitelist',
  },
  emailAliasNotAllowed: {
    zh: '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。',
    en: 'The administrator forbids email aliases; your address contains a special character',
  },
  emailTaken: { zh: '邮箱地址已被占用', en: 'Email address is already in use' },
  emailNotRegistered: { zh: '该邮箱地址未注册', en: 'This email address is not registered' },
  codeInvalid: { zh: '验证码错误或已过期', en: 'Verification code is incorrect or expired' },
  resetLinkInvalid: { zh: '重置链接非法或已过期', en: 'Reset link is invalid or expired' },
  resendTooSoon: { zh: '请求过于频繁，请 {seconds} 秒后再试', en: 'Too many requests, try again in {seconds} seconds' },
  mailNotConfigured: { zh: '管理员未配置 SMTP 服务，无法发送邮件', en: 'The administrator has not configured SMTP; mail cannot be sent' },
  mailFailed: { zh: '邮件发送失败，请稍后重试', en: 'The mail could not be sent, try again later' },
  codeSent: { zh: '验证码发送成功，请检查邮箱', en: 'Verification code sent, check your mailbox' },
  resetMailSent: { zh: '重置邮件发送成功，请检查邮箱', en: 'Reset mail sent, check your mailbox' },
} as const satisfies Record<string, LocalizedMessage>;
