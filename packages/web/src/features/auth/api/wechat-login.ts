import { api } from '../../../lib/api-client.ts';
import type { LoginAnswer } from '../lib/login-answer.ts';

/** GET /api/oauth/wechat?code=: logs in with the code the WeChat official account replied. */
export function wechatLogin(code: string): Promise<LoginAnswer> {
  return api.get<LoginAnswer>('/api/oauth/wechat', { code });
}
