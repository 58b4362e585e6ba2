import { requestEnvelope } from '../../../lib/api-client.ts';
import type { LoginAnswer } from '../lib/login-answer.ts';

export type OAuthOutcome = { kind: 'bound' } | { kind: 'login'; user: LoginAnswer };

/**
 * GET /api/oauth/{provider}?code&state: message 'bind' means the account was bound to the logged-in
 * user; otherwise data is the user now logged in.
 */
export async function completeOAuth(provider: string, code: string, state: string): Promise<OAuthOutcome> {
  const envelope = await requestEnvelope<LoginAnswer | undefined>('GET', `/api/oauth/${encodeURIComponent(provider)}`, { query: { code, state } });
  if (envelope.message === 'bind' || !envelope.data) return { kind: 'bound' };
  return { kind: 'login', user: envelope.data };
}
