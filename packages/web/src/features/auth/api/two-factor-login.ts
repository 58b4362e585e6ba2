import { api } from '../../../lib/api-client.ts';
import type { StoredUser } from '../../../lib/stored-user.ts';

/** POST /api/user/login/2fa: the second step of a login; data is the user now logged in. */
export function twoFactorLogin(code: string, flowToken: string): Promise<StoredUser> {
  return api.post<StoredUser>('/api/user/login/2fa', { code, flow_token: flowToken });
}
