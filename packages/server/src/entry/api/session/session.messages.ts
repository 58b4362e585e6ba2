import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

export const sessionMessages = {
  passwordLoginDisabled: { zh: '管理员关闭了密码登录', en: 'Administrator has disabled password login' },
  credentialsRequired: { zh: '请输入用户名和密码！', en: 'Enter the username and the password' },
  wrongCredentials: { zh: '用户名或密码错误，或用户已被封禁', en: 'Username or password is incorrect, or user has been banned' },
  humanCheckRequired: { zh: '请先完成人机验证，再重新登录', en: 'Complete the human check, then log in again' },
} as const satisfies Record<string, LocalizedMessage>;
