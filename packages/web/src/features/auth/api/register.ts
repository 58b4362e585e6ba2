import { api } from '../../../lib/api-client.ts';

export interface RegisterInput {
  username: string;
  password: string;
  password2: string;
  email?: string;
  verification_code?: string;
  aff_code?: string;
}

/** POST /api/user/register (query turnstile). */
export function register(input: RegisterInput, turnstile: string): Promise<unknown> {
  return api.post('/api/user/register', input, { turnstile: turnstile || undefined });
}
