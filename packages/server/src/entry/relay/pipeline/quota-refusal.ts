import { relayMessages } from '../relay.messages.ts';
import { RelayError } from '../../../core/http/relay-error.ts';

/** The caller's error when the spending guard refuses a hold: new-api's codes, the balance that ran out named. */
export function quotaRefusal(refusedBy: 'user' | 'token'): RelayError {
  if (refusedBy === 'user') return new RelayError(403, 'insufficient_user_quota', relayMessages.insufficientUserQuota);
  return new RelayError(403, 'pre_consume_token_quota_failed', relayMessages.insufficientTokenQuota);
}
