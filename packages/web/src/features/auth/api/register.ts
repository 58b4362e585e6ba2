import { api } from '../../../lib/api-client.ts';

export interface RegisterInput {
  username: string;
  password: string;
  password2: string;
  email?: string;
  verification_code?: string;
  aff_code?: string;
  /** Required true by the server when a user agreement or privacy policy is published. */
  agreed_to_terms?: boolean;
}

/** POST /api/user/register (query turnstile). */
export function register(input: RegisterInput, turnstile: string): Promise<unknown> {
  return api.post('/api/user/register', input, { turnstile: turnstile || undefined });
}
