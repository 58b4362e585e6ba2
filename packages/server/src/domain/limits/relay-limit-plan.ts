import type { LimitChange, LimitRule } from './limit-store.ts';
import { windowSlot } from './window-slot.ts';

/** A token's own limits; 0 (or an absent column) means unlimited. */
export interface TokenRequestLimits {
  readonly requestsPerMinute: number;
  readonly tokensPerMinute: number;
  readonly concurrentRequests: number;
}

/** new-api's per-user model request limit as it applies to one request's group. 0 = unlimited. */
export interface ModelRequestLimit {
  readonly durationMinutes: number;
  /** Requests in the window, failed ones included (ModelRequestRateLimitCount). */
  readonly total: number;
  /** Successful requests in the window (ModelRequestRateLimitSuccessCount). */
  readonly success: number;
}

export type RelayLimitName = 'user-total' | 'user-success' | 'token-rpm' | 'token-tpm' | 'token-concurrency';

export interface PlannedLimit {
  readonly name: RelayLimitName;
  readonly rule: LimitRule;
  /** For the refusal's message: the window in minutes. */
  readonly minutes: number;
}

export interface RelayLimitSubject {
  readonly userId: number;
  readonly tokenId: number;
  readonly model: ModelRequestLimit | undefined;
  readonly token: TokenRequestLimits | undefined;
  /**
   * What a request counts against TPM until its real usage is known: the prompt's estimate plus the
   * completion it is expected to produce, so requests in flight together cannot all pass one check.
   */
  readonly expectedTokens: number;
  /** Unique per request: names its concurrency lease. */
  readonly requestId: string;
}

const minuteMs = 60_000;
/**
 * How long a concurrency lease outlives a request that never released it (its instance died). Longer
 * than any sane request, so a live stream does not lose its slot; a dead instance's slots return then.
 */
export const concurrencyLeaseMs = 15 * minuteMs;

function windowRule(name: RelayLimitName, key: string, limit: number, cost: number, minutes: number, now: number): PlannedLimit {
  const slot = windowSlot(key, minutes * minuteMs, now);
  return { name, minutes, rule: { kind: 'window', key: slot.key, limit, cost, ttlMs: slot.remainingMs } };
}

/**
 * The limits one relay request must fit in, in the order they are reported when several are full:
 * the user's (new-api's `ModelRequestRateLimit*`, keyed by user), then the token's own.
 * The success count is taken up front and given back if the request fails, so requests in flight
 * count too: N parallel requests cannot all pass a check made before any of them succeeded.
 */
export function planRelayLimits(subject: RelayLimitSubject, now: number): PlannedLimit[] {
  const planned: PlannedLimit[] = [];
  const { model, token } = subject;
  if (model) {
    const minutes = Math.max(1, model.durationMinutes);
    if (model.total > 0) planned.push(windowRule('user-total', `mrl:total:${subject.userId}`, model.total, 1, minutes, now));
    if (model.success > 0) planned.push(windowRule('user-success', `mrl:success:${subject.userId}`, model.success, 1, minutes, now));
  }
  if (token) {
    if (token.requestsPerMinute > 0) planned.push(windowRule('token-rpm', `tok:rpm:${subject.tokenId}`, token.requestsPerMinute, 1, 1, now));
    if (token.tokensPerMinute > 0)
      planned.push(windowRule('token-tpm', `tok:tpm:${subject.tokenId}`, token.tokensPerMinute, Math.max(1, Math.ceil(subject.expectedTokens)), 1, now));
    if (token.concurrentRequests > 0)
      planned.push({
        name: 'token-concurrency',
        minutes: 0,
        rule: {
          kind: 'concurrency',
          key: `tok:conc:${subject.tokenId}`,
          limit: token.concurrentRequests,
          leaseId: subject.requestId,
          ttlMs: concurrencyLeaseMs,
        },
      });
  }
  return planned;
}

export interface RelayOutcome {
  /** The answer's status was below 400 (new-api's definition of a success). */
  readonly succeeded: boolean;
  /** Prompt plus completion tokens charged, or undefined when nothing was charged. */
  readonly usedTokens: number | undefined;
}

/**
 * What a finished request changes: a failed one gives its success slot back, the token-per-minute
 * count moves from the prompt estimate to the tokens really charged (all of it back when none were),
 * and the concurrency lease is released.
 */
export function finishChanges(planned: readonly PlannedLimit[], outcome: RelayOutcome): LimitChange[] {
  const changes: LimitChange[] = [];
  for (const { name, rule } of planned) {
    if (rule.kind === 'concurrency') changes.push({ kind: 'concurrency', key: rule.key, leaseId: rule.leaseId });
    else if (name === 'user-success' && !outcome.succeeded) changes.push({ kind: 'window', key: rule.key, delta: -1 });
    else if (name === 'token-tpm') {
      const delta = (outcome.usedTokens ?? 0) - rule.cost;
      if (delta !== 0) changes.push({ kind: 'window', key: rule.key, delta });
    }
  }
  return changes;
}
