import { describe, expect, it } from 'vitest';
import { RelayError } from '../../../core/http/relay-error.ts';
import type { AttemptResult } from '../pipeline/attempt-result.ts';
import { breakerOutcome } from './attempt-outcome.ts';

const failedWith = (status: number, disablesChannel = false): AttemptResult => ({
  kind: 'failed',
  error: new RelayError(status, 'upstream_error', 'failed'),
  retryable: true,
  disablesChannel,
});

describe('what an attempt means for its channel breaker', () => {
  it('counts an answer as a success, even one the caller left', () => {
    const charged: AttemptResult = {
      kind: 'charged',
      usage: undefined,
      localCompletionTokens: 0,
      firstResponseMs: 5,
      upstreamModel: 'gpt-4o',
      endReason: 'client_gone',
      warnings: [],
    };
    expect(breakerOutcome(charged)).toBe('success');
  });

  it("blames the channel for server errors, rate limits, dead keys and the relay's own 5xx", () => {
    for (const status of [500, 502, 503, 504, 429, 401, 403, 0]) expect(breakerOutcome(failedWith(status))).toBe('failure');
    expect(breakerOutcome(failedWith(400, true))).toBe('failure');
  });

  it("does not blame it for the caller's mistakes or departure", () => {
    for (const status of [400, 404, 413, 422, 499]) expect(breakerOutcome(failedWith(status))).toBe('neutral');
  });
});
