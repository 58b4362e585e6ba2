import { api } from '../../../lib/api-client.ts';
import type { LoginAnswer } from '../lib/login-answer.ts';

export interface LoginInput {
  username: string;
  password: string;
}

/** POST /api/user/login (query turnstile): data is the user, or the second-factor challenge. */
export function login(input: LoginInput, turnstile: string): Promise<LoginAnswer> {
  return api.post<LoginAnswer>('/api/user/login', input, { turnstile: turnstile || undefined });
}
