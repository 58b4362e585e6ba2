import type { NormalizedUsage } from '../provider.ts';
import { relayMessages } from '../relay.messages.ts';
import { RelayError } from '../../../core/http/relay-error.ts';
import type { StreamEndReason } from './stream-response.ts';

// What one call of one channel ends in: charged (the upstream worked on it) or failed (another channel may be tried).

/**
 * The upstream got the request and worked on it, so the attempt is charged: usage when the upstream
 * reported it, else the completion counted locally. `callerError` is what the caller gets instead of
 * the answer (sensitive words, or nobody left to answer); it is sent after the charge is settled.
 */
export interface ChargedAttempt {
  readonly kind: 'charged';
  readonly usage: NormalizedUsage | undefined;
  readonly localCompletionTokens: number;
  /** Undefined when no byte of an answer arrived. */
  readonly firstResponseMs: number | undefined;
  readonly upstreamModel: string;
  readonly endReason: StreamEndReason | 'complete';
  /** Parameters the provider dropped or changed on the way (for the consume log). */
  readonly warnings: readonly string[];
  readonly callerError?: RelayError;
}

export type AttemptResult =
  ChargedAttempt | { readonly kind: 'failed'; readonly error: RelayError; readonly retryable: boolean; readonly disablesChannel: boolean };

export function failed(error: RelayError, retryable: boolean, disablesChannel = false): AttemptResult {
  return { kind: 'failed', error, retryable, disablesChannel };
}

/** The caller left before its answer: nobody to answer, nothing to retry. */
export function callerGoneError(): RelayError {
  return new RelayError(499, 'client_gone', relayMessages.callerGone);
}

/** What an attempt records beside its answer, known once the upstream request is built. */
export interface SentRequest {
  readonly upstreamModel: string;
  readonly warnings: readonly string[];
}
