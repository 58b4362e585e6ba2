import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

/** new-api's setup texts (controller/setup.go) in both languages. */
export const setupMessages = {
  alreadyDone: { zh: '系统已经初始化完成', en: 'The system has already been set up' },
  usernameTooLong: { zh: '用户名长度不能超过12个字符', en: 'The username cannot be longer than 12 characters' },
  passwordsDiffer: { zh: '两次输入的密码不一致', en: 'The two passwords do not match' },
  passwordTooShort: { zh: '密码长度至少为8个字符', en: 'The password must be at least 8 characters long' },
  done: { zh: '系统初始化成功', en: 'The system is set up' },
} as const satisfies Record<string, LocalizedMessage>;
