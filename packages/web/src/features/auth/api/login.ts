import { api } from '../../../lib/api-client.ts';
import type { StoredUser } from '../../../lib/stored-user.ts';

export interface LoginInput {
  username: string;
  password: string;
}

/** POST /api/user/login (query turnstile): data is the user. */
export function login(input: LoginInput, turnstile: string): Promise<StoredUser> {
  return api.post<StoredUser>('/api/user/login', input, { turnstile: turnstile || undefined });
}
