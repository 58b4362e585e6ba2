import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

export const registerMessages = {
  registerDisabled: { zh: '管理员关闭了新用户注册', en: 'Administrator has disabled new user registration' },
  passwordRegisterDisabled: {
    zh: '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
    en: 'Administrator has disabled password registration; sign up with a third-party account',
  },
  emailAndCodeRequired: {
    zh: '管理员开启了邮箱验证，请输入邮箱地址和验证码',
    en: 'Email verification is on: enter the email address and the verification code',
  },
} as const satisfies Record<string, LocalizedMessage>;
