import { api } from '../../../lib/api-client.ts';

/** GET /api/user/token: a new system access token (the old one stops working). */
export function regenerateAccessToken(): Promise<string> {
  return api.get<string>('/api/user/token');
}
