import { api } from '../../../lib/api-client.ts';

/** GET /api/oauth/wechat/bind?code= */
export function bindWechat(code: string): Promise<unknown> {
  return api.get('/api/oauth/wechat/bind', { code });
}
