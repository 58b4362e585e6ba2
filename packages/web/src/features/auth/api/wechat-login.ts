import { api } from '../../../lib/api-client.ts';
import type { StoredUser } from '../../../lib/stored-user.ts';

/** GET /api/oauth/wechat?code=: logs in with the code the WeChat official account replied. */
export function wechatLogin(code: string): Promise<StoredUser> {
  return api.get<StoredUser>('/api/oauth/wechat', { code });
}
