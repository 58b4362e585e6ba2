import type { FastifyReply } from 'fastify';
import type { Clock } from '../../core/platform/clock.ts';
import type { OptionStore } from '../options/option-store.ts';
import type { RelayCaller } from '../../entry/relay/pipeline/caller-auth.ts';
import { RelayError } from '../../core/http/relay-error.ts';
import type { NormalizedUsage } from '../../entry/relay/provider.ts';
import type { Admission, LimitStore } from './limit-store.ts';
import { limitsMessages } from './limits.messages.ts';
import { modelRequestLimitFor } from './model-request-limit.ts';
import { finishChanges, type PlannedLimit, planRelayLimits } from './relay-limit-plan.ts';
import { retryAfterSeconds } from './window-slot.ts';

/** What the relay tells the limits once the request is charged. */
export interface RelayLimitPermit {
  /** The tokens really used, which replace the prompt estimate in the token's per-minute count. */
  charged(usage: NormalizedUsage): void;
}

const unlimited: RelayLimitPermit = { charged: () => undefined };

class HeldPermit implements RelayLimitPermit {
  private readonly store: LimitStore;
  private readonly planned: readonly PlannedLimit[];
  private readonly clock: Clock;
  private usedTokens: number | undefined;
  private finished = false;

  constructor(store: LimitStore, planned: readonly PlannedLimit[], clock: Clock) {
    this.store = store;
    this.planned = planned;
    this.clock = clock;
  }

  charged(usage: NormalizedUsage): void {
    this.usedTokens = usage.promptTokens + usage.completionTokens;
  }

  finish(succeeded: boolean): void {
    if (this.finished) return;
    this.finished = true;
    const changes = finishChanges(this.planned, { succeeded, usedTokens: this.usedTokens });
    if (changes.length === 0) return;
    const settled = this.store.settle(changes, this.clock.now());
    if (settled) settled.catch(() => undefined);
  }
}

function refusal(limit: PlannedLimit, seconds: number): RelayError {
  const params = { limit: limit.rule.limit, seconds, minutes: limit.minutes };
  switch (limit.name) {
    case 'user-total':
      return new RelayError(429, 'model_request_rate_limit_exceeded', limitsMessages.userTotal, { params });
    case 'user-success':
      return new RelayError(429, 'model_request_rate_limit_exceeded', limitsMessages.userSuccess, { params });
    case 'token-rpm':
      return new RelayError(429, 'token_rpm_limit_exceeded', limitsMessages.tokenRpm, { type: 'requests', params });
    case 'token-tpm':
      return new RelayError(429, 'token_tpm_limit_exceeded', limitsMessages.tokenTpm, { type: 'tokens', params });
    case 'token-concurrency':
      return new RelayError(429, 'token_concurrency_limit_exceeded', limitsMessages.tokenConcurrency, { type: 'requests', params });
  }
}

/**
 * The relay's request limits, checked before any upstream is called: new-api's per-user model
 * request limit and each token's requests per minute, tokens per minute and concurrent requests.
 * Nothing is read from the database (token limits ride on the cached token, settings on the option
 * store); a request with no limit configured costs one option lookup; one with limits costs one
 * round trip to the store (Redis when configured) before, and one after it, off its path.
 */
export class RelayLimits {
  private readonly store: LimitStore;
  private readonly options: OptionStore;
  private readonly clock: Clock;

  constructor(dependencies: { store: LimitStore; options: OptionStore; clock: Clock }) {
    this.store = dependencies.store;
    this.options = dependencies.options;
    this.clock = dependencies.clock;
  }

  /**
   * Admits the request or throws an OpenAI-shaped 429 naming the limit, with Retry-After. Slots are
   * given back when the answer closes (streams included, and a caller that leaves): a failed answer
   * returns its success slot, the token's per-minute count takes the tokens charged (see `charged`).
   * The playground (no token) has none of these limits, as in new-api. Synchronous when no limit
   * applies, so the common request does not wait a microtask for nothing.
   */
  admit(caller: RelayCaller, expectedTokens: number, requestId: string, reply: FastifyReply): RelayLimitPermit | Promise<RelayLimitPermit> {
    const token = caller.token;
    if (!token) return unlimited;
    const model = modelRequestLimitFor(this.options, caller.usingGroup);
    if (!model && !token.requestLimits) return unlimited;
    const now = this.clock.now();
    const planned = planRelayLimits({ userId: caller.user.id, tokenId: token.id, model, token: token.requestLimits, expectedTokens, requestId }, now);
    if (planned.length === 0) return unlimited;
    const admission = this.store.admit(
      planned.map((limit) => limit.rule),
      now,
    );
    // This process's own store answers at once: the request then goes on without a microtask's wait.
    if (admission instanceof Promise) return admission.then((answer) => this.permitFor(answer, planned, reply));
    return this.permitFor(admission, planned, reply);
  }

  /** The store's say on the planned limits; a refusal throws the 429. */
  private permitFor(admission: Admission, planned: readonly PlannedLimit[], reply: FastifyReply): RelayLimitPermit {
    if (!admission.admitted) {
      const refused = planned[admission.refused];
      const seconds = retryAfterSeconds(admission.retryAfterMs);
      reply.header('retry-after', String(seconds));
      if (refused) throw refusal(refused, seconds);
      throw new RelayError(429, 'rate_limit_exceeded', limitsMessages.userSuccess, { params: { limit: 0, minutes: 0 } });
    }
    const permit = new HeldPermit(admission.store, planned, this.clock);
    reply.raw.on('close', () => permit.finish(reply.raw.statusCode < 400));
    return permit;
  }
}
