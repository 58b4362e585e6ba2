import type { FastifyReply, FastifyRequest } from 'fastify';
import { computeQuota, resolvePricing } from '../../../domain/billing/pricing.ts';
import { readPriceTables } from '../../../domain/billing/price-tables.ts';
import { relayMessages } from '../relay.messages.ts';
import type { RelayServices } from '../relay-services.ts';
import type { CachedAnswer } from '../response-cache/cached-answer.ts';
import type { CachePlan } from '../response-cache/response-cache.ts';
import type { RelayCaller } from './caller-auth.ts';
import { consumeLogEntry } from './consume-log.ts';
import { RelayError } from '../../../core/http/relay-error.ts';
import type { ParsedRelayBody } from './request-reader.ts';
import { quotaRefusal } from './quota-refusal.ts';

export interface CacheHit {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly caller: RelayCaller;
  readonly parsed: ParsedRelayBody;
  readonly plan: CachePlan;
  readonly answer: CachedAnswer;
  readonly startedAt: number;
  readonly path: string;
}

/**
 * Answers from the response cache: no channel, no upstream. The hit costs the rule's `hit_ratio` of
 * what the original usage costs at the serving model's price, and moves through the same hold →
 * journal → flush path as every relay charge, with a consume row marked `response_cache: "hit"` that
 * keeps the original usage. The bytes go out once the charge is in the journal: a streamed answer's
 * events exactly as first sent (same framing), a whole answer's body.
 */
export async function serveCachedAnswer(services: RelayServices, hit: CacheHit): Promise<void> {
  const { options, clock } = services;
  const { caller, answer, plan, request, reply } = hit;
  const tables = readPriceTables(options);
  const pricing = resolvePricing(
    tables,
    answer.servedModel,
    { userGroup: caller.user.group, usingGroup: caller.usingGroup },
    options.getBoolean('SelfUseModeEnabled') || caller.user.acceptUnpriced,
  );
  if (!pricing) throw new RelayError(400, 'model_price_error', relayMessages.modelPriceError, { params: { model: answer.servedModel } });
  const fullQuota = computeQuota(pricing, answer.usage, tables.quotaPerUnit, hit.parsed.calls);
  const quota = Math.round(fullQuota * plan.rule.hit_ratio);
  // A hit is a request for the token's and user's request limits, but generates no tokens.
  let permit = services.limits.admit(caller, 0, request.id, reply);
  if (permit instanceof Promise) permit = await permit;
  let reserved = services.ledger.reserve(caller.token, caller.user, quota, quota, quota);
  if (reserved instanceof Promise) reserved = await reserved;
  if (!reserved.ok) throw quotaRefusal(reserved.refusedBy);
  const reservation = reserved.reservation;
  try {
    const budgetHold = services.budgets.keeper.hold(reservation, quota);
    if (budgetHold) await budgetHold;
    permit.charged({ promptTokens: 0, completionTokens: 0 });
    const finishedAt = clock.now();
    const log = options.getBoolean('LogConsumeEnabled')
      ? consumeLogEntry({
          caller,
          model: answer.servedModel,
          upstreamModel: answer.servedModel,
          pricing,
          usage: answer.usage,
          quota,
          channelId: 0,
          triedChannels: [],
          stream: hit.parsed.stream,
          startedAt: hit.startedAt,
          finishedAt,
          firstResponseMs: Math.max(0, Math.round(finishedAt - hit.startedAt)),
          requestId: request.id,
          requestPath: hit.path,
          localCount: false,
          endReason: 'complete',
          warnings: [],
          createdAt: clock.unixSeconds(),
          extraOther: { response_cache: 'hit', response_cache_hit_ratio: plan.rule.hit_ratio, response_cache_full_quota: fullQuota },
        })
      : undefined;
    const journaled = services.ledger.settle(reservation, quota, 0, log);
    if (journaled) await journaled;
  } finally {
    services.ledger.refund(reservation);
  }
  // The request id and CORS headers are on the reply already (the app's and the relay scope's onRequest hooks).
  reply.status(200).header('content-type', answer.contentType).header('x-switchboard-cache', 'hit').header('x-switchboard-model', answer.servedModel);
  if (answer.kind === 'stream') reply.header('cache-control', 'no-cache');
  await reply.send(answer.body);
}
