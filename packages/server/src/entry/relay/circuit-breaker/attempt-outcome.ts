import type { AttemptResult } from '../pipeline/attempt-result.ts';
import type { BreakerOutcome } from './channel-breakers.ts';

/**
 * How an attempt counts for its channel's breaker. An answer (even one cut short later) is a
 * success. The channel is to blame for 5xx, 429 (its quota or rate), 401/403 (its key), and for
 * being unreachable, silent or unreadable (status 5xx from the relay itself). Everything else, such
 * as a caller's bad request or a caller who left, says nothing about the channel.
 */
export function breakerOutcome(result: AttemptResult): BreakerOutcome {
  if (result.kind === 'charged') return 'success';
  if (result.disablesChannel) return 'failure';
  const status = result.error.status;
  if (status === 499) return 'neutral';
  if (status >= 500 || status < 100 || status === 429 || status === 401 || status === 403) return 'failure';
  return 'neutral';
}
