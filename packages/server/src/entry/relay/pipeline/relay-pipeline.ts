import type { FastifyReply, FastifyRequest } from 'fastify';
import { modelOutputLimit } from '../../../domain/billing/output-limits.ts';
import { computeQuota, estimatedQuota, preConsumeQuota, resolvePricing, worstCaseQuota } from '../../../domain/billing/pricing.ts';
import { readPriceTables } from '../../../domain/billing/price-tables.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { ChannelRecord } from '../cache/channel-cache.ts';
import type { CapabilityName, NormalizedUsage } from '../provider.ts';
import { relayMessages } from '../relay.messages.ts';
import type { RelayServices } from '../relay-services.ts';
import { checkModelAllowed, type RelayCaller } from './caller-auth.ts';
import { consumeLogEntry } from './consume-log.ts';
import { noChannelError } from './no-channel-error.ts';
import type { RelayEndpoint } from './relay-endpoints.ts';
import { RelayError } from '../../../core/http/relay-error.ts';
import { readRelayBody, type ParsedRelayBody } from './request-reader.ts';
import { countTextTokens, estimateTokens } from './token-estimate.ts';
import { watchCallerGone } from './caller-gone.ts';
import { callerGoneError, type AttemptResult, type ChargedAttempt } from './attempt-result.ts';
import { attemptUpstream } from './upstream-attempt.ts';
import { breakerOutcome } from '../circuit-breaker/attempt-outcome.ts';
import { autoGroupsOf } from '../../../domain/groups/usable-groups.ts';
import { contextWindowFallback, isContextLengthRefusal } from '../fallbacks/context-window.ts';
import { modelChain } from '../fallbacks/model-fallbacks.ts';
import { AnswerCapture } from '../response-cache/answer-capture.ts';
import type { CachePlan } from '../response-cache/response-cache.ts';
import { serveCachedAnswer } from './cached-answer-reply.ts';
import { relayHeaders } from './relay-headers.ts';
import { routedAttempt } from '../routing/channel-router.ts';
import { quotaRefusal } from './quota-refusal.ts';
import { raiseHold, type HeldRequest, type HoldTerms } from './raised-hold.ts';

export { relayHeaders };

/** The headers of one relayed answer: the model that served it, and whether a cache rule applied. */
function answerHeaders(requestId: string, servingModel: string, cachePlan: CachePlan | undefined): Record<string, string> {
  const headers = relayHeaders(requestId);
  headers['x-switchboard-model'] = servingModel;
  if (cachePlan) headers['x-switchboard-cache'] = 'miss';
  return headers;
}

/**
 * The path the caller called, as new-api logs it (`request_path`): entries relay through the chat
 * or embeddings endpoint, but the log says `/v1/messages` or `/v1beta/models/…`. The query is cut
 * off: Gemini callers may put their key there.
 */
export function callerPath(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query < 0 ? request.url : request.url.slice(0, query);
}

/** Sensitive words in the prompt: refused, or masked before the upstream sees them. */
function applyPromptCheck(services: RelayServices, parsed: ParsedRelayBody): ParsedRelayBody {
  if (!services.sensitive.checksPrompt) return parsed;
  const found = services.sensitive.find(parsed.promptText);
  if (found.length === 0) return parsed;
  if (services.sensitive.stops || !parsed.body) throw new RelayError(400, 'sensitive_words_detected', relayMessages.sensitiveWords);
  const masked = safeParseJson(services.sensitive.mask(parsed.rawBody.toString('utf8'), found));
  if (!masked.ok) throw new RelayError(400, 'sensitive_words_detected', relayMessages.sensitiveWords);
  return { ...parsed, body: masked.value as Record<string, unknown>, bodyChanged: true };
}

/** Endpoints whose answers generate no tokens: their worst case is the prompt alone. */
const inputOnly: ReadonlySet<CapabilityName> = new Set(['embeddings', 'moderations', 'rerank']);

/** The most tokens the answer may generate: the caller's limit, else the model's output limit. */
function completionCeiling(endpoint: RelayEndpoint, parsed: ParsedRelayBody, options: OptionStore): number {
  if (parsed.maxTokens > 0) return parsed.maxTokens;
  if (inputOnly.has(endpoint.capability)) return 0;
  return modelOutputLimit(parsed.model, {
    perModel: options.getJson<Record<string, number>>('ModelMaxOutputTokens'),
    fallback: options.getNumber('DefaultMaxOutputTokens'),
  });
}

/** The channel of attempt `attempt`, or undefined when none is left. A pinned channel must be usable. */
function nextChannel(services: RelayServices, caller: RelayCaller, model: string, attempt: number, tried: Set<number>): ChannelRecord | undefined {
  if (caller.pinnedChannelId !== undefined) {
    const channel = services.channels.get(caller.pinnedChannelId);
    if (attempt > 0 || !channel || channel.status !== 1 || !channel.provider) return undefined;
    return channel;
  }
  const tiers = services.channels.tiers(caller.usingGroup, model);
  return services.router.choose(tiers, caller.usingGroup, model, attempt, tried, services.random, services.breakers.usableFilter());
}

interface AdmittedChannel {
  readonly channel: ChannelRecord;
  readonly keyIndex: number;
}

/**
 * The channel and key of attempt `attempt`, admitted by their circuit breaker; synchronous unless a
 * half-open circuit's probe is claimed through Redis. Only a probe another instance just took
 * refuses; the circuit then counts as probed and the pick is made again (it comes back only as the
 * last resort), so the loop ends.
 */
function nextAdmitted(
  services: RelayServices,
  caller: RelayCaller,
  model: string,
  attempt: number,
  tried: Set<number>,
): AdmittedChannel | undefined | Promise<AdmittedChannel | undefined> {
  const channel = nextChannel(services, caller, model, attempt, tried);
  if (!channel) return undefined;
  const keyIndex = services.router.pickKey(channel, caller.usingGroup, services.random, services.breakers);
  const admitted = services.breakers.admit(channel, keyIndex);
  if (admitted === true) return { channel, keyIndex };
  if (admitted === false) return nextAdmitted(services, caller, model, attempt, tried);
  return admitted.then((claimed) => (claimed ? { channel, keyIndex } : nextAdmitted(services, caller, model, attempt, tried)));
}

/** The usage a charged attempt is billed for: the upstream's, else the prompt and completion counted here. */
function billedUsage(parsed: ParsedRelayBody, result: ChargedAttempt): NormalizedUsage {
  return result.usage ?? { promptTokens: countTextTokens(parsed.promptText), completionTokens: result.localCompletionTokens };
}

/** The request as it is sent for a fallback model: the body names that model. */
function askingFor(parsed: ParsedRelayBody, model: string): ParsedRelayBody {
  if (model === parsed.model || !parsed.body) return parsed;
  return { ...parsed, model, body: { ...parsed.body, model }, bodyChanged: true };
}

/** What stays the same for every model and group one caller request tries. */
interface RequestScope {
  readonly services: RelayServices;
  readonly endpoint: RelayEndpoint;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly startedAt: number;
  readonly trace: ReturnType<NonNullable<RelayServices['tracing']>['relay']> | undefined;
  readonly limitPermit: { charged(usage: NormalizedUsage): void };
  readonly callerGone: AbortSignal;
  readonly payload: ReturnType<RelayServices['payloads']['capture']>;
  readonly cachePlan: CachePlan | undefined;
  /** The models tried so far, the current one last (for the log row when more than one was). */
  readonly modelsTried: string[];
  readonly requestedModel: string;
  readonly autoGroup: boolean;
}

/** One model in one group: served, or why not and whether the next model or group may be tried. */
type ModelOutcome =
  { readonly served: true } | { readonly served: false; readonly error: RelayError; readonly fallsBack: boolean; readonly contextWindow: boolean };

/**
 * The relay of one caller request: read the body once, check the model and prompt, answer from the
 * response cache when a rule applies and holds the answer (no upstream, no channel, billed at the
 * rule's hit ratio), else try the request's models in order (the model, its fallbacks, a larger-context
 * model after a context-length refusal), each in the caller's group (or the `auto` groups in order),
 * each priced and held on its own (see relayAs). Throws the last error when none served.
 */
export async function relayRequest(
  services: RelayServices,
  endpoint: RelayEndpoint,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: RelayCaller,
  bodyValue: unknown,
  bodyEdited = false,
): Promise<void> {
  const { options, clock } = services;
  const startedAt = clock.now();
  // Undefined unless tracing is on (platform/tracing/).
  const trace = services.tracing?.relay(request);
  const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const contentType = String(request.headers['content-type'] ?? '');
  const read = readRelayBody(endpoint, rawBody, bodyValue, contentType);
  const parsed = applyPromptCheck(services, bodyEdited ? { ...read, bodyChanged: true } : read);
  checkModelAllowed(caller, parsed.model);
  trace?.describe(endpoint.capability, parsed, caller);

  const groups = caller.usingGroup === 'auto' ? autoGroupsOf(options, caller.user.group) : [caller.usingGroup];
  const path = callerPath(request);
  // One property read when no cache rule exists (the rules are compiled when the option changes).
  const cachePlan = services.responseCache.plan({
    capability: endpoint.capability,
    path,
    model: parsed.model,
    stream: parsed.stream,
    body: parsed.body,
    groups,
    pinnedChannel: caller.pinnedChannelId !== undefined,
    userId: caller.user.id,
    tokenOptedOut: caller.token?.responseCacheOff === true,
    cacheControl: request.headers['cache-control'],
    switchboardCache: request.headers['x-switchboard-cache'] as string | undefined,
  });
  if (cachePlan?.read) {
    let hit = services.responseCache.lookup(cachePlan);
    if (hit instanceof Promise) hit = await hit;
    if (hit) {
      const group = groups[0] ?? caller.usingGroup;
      await serveCachedAnswer(services, { request, reply, caller: { ...caller, usingGroup: group }, parsed, plan: cachePlan, answer: hit, startedAt, path });
      return;
    }
  }

  // The operator chose safety over availability: no paid call while its charge could not survive a crash.
  if (options.getBoolean('RefuseWhenJournalFailing') && !services.chargesDurable()) {
    throw new RelayError(503, 'charges_not_durable', relayMessages.chargesNotDurable);
  }
  const promptEstimate = estimateTokens(parsed.promptText);
  // What the model's answers have used lately: the request's share of its token's TPM.
  const usual = services.expectedUsage.of(parsed.model);
  const usualPrompt = Math.max(0, promptEstimate + Math.ceil(usual?.promptBeyondEstimate ?? 0));
  const usualCompletion = Math.ceil(usual?.completionTokens ?? 0);
  const expectedTokens = usualPrompt + (parsed.maxTokens > 0 ? Math.min(parsed.maxTokens, usual ? usualCompletion : parsed.maxTokens) : usualCompletion);
  let limitPermit = services.limits.admit(caller, expectedTokens, request.id, reply);
  if (limitPermit instanceof Promise) limitPermit = await limitPermit;

  const scope: RequestScope = {
    services,
    endpoint,
    request,
    reply,
    startedAt,
    trace,
    limitPermit,
    callerGone: watchCallerGone(reply.raw),
    // Undefined (nothing captured, nothing copied) unless payload logging is on for this request.
    payload: services.payloads.capture(caller.token, rawBody, contentType),
    cachePlan,
    modelsTried: [],
    requestedModel: parsed.model,
    autoGroup: caller.usingGroup === 'auto',
  };
  // A multipart body cannot be re-addressed to another model: it is relayed for its own model only.
  const chain = parsed.body ? modelChain(options, parsed.model, caller.token?.modelFallbacks) : [parsed.model];
  let lastError: RelayError | undefined;
  for (let index = 0; index < chain.length; index += 1) {
    const model = chain[index] as string;
    scope.modelsTried.push(model);
    for (const group of groups) {
      const outcome = await relayAs(scope, { ...caller, usingGroup: group }, askingFor(parsed, model), index === 0);
      if (outcome.served) return;
      lastError = outcome.error;
      if (outcome.contextWindow) {
        const larger = contextWindowFallback(options, model);
        if (larger && !chain.includes(larger)) chain.splice(index + 1, 0, larger);
        if (larger) break;
      }
      if (!outcome.fallsBack) throw outcome.error;
    }
  }
  throw lastError ?? noChannelError(services.channels, caller, parsed.model);
}

/**
 * One model in one group: price it, hold quota on token and user, then try channels (priority tiers,
 * weighted, retries on retryable failures, never a channel twice) until one answers; settle to the
 * exact cost with its consume log, or refund exactly once and report the last error. A caller who
 * leaves once a channel has the request is charged for what it was sent and produced (see
 * upstream-attempt.ts), not refunded. Only the requested model's missing price is the caller's error;
 * a fallback without a price is passed over.
 */
async function relayAs(scope: RequestScope, caller: RelayCaller, parsed: ParsedRelayBody, requested: boolean): Promise<ModelOutcome> {
  const { services, endpoint, request, reply, startedAt, trace, callerGone, payload, cachePlan } = scope;
  const { options, clock } = services;
  const tables = readPriceTables(options);
  const pricing = resolvePricing(
    tables,
    parsed.model,
    { userGroup: caller.user.group, usingGroup: caller.usingGroup },
    options.getBoolean('SelfUseModeEnabled') || caller.user.acceptUnpriced,
  );
  if (!pricing) {
    const error = new RelayError(400, 'model_price_error', relayMessages.modelPriceError, { params: { model: parsed.model } });
    if (requested && !scope.autoGroup) throw error;
    return { served: false, error, fallsBack: true, contextWindow: false };
  }
  const promptEstimate = estimateTokens(parsed.promptText);
  // What the model's answers have used lately: its claim near the edge of a balance.
  const usual = services.expectedUsage.of(parsed.model);
  const usualPrompt = Math.max(0, promptEstimate + Math.ceil(usual?.promptBeyondEstimate ?? 0));
  const usualCompletion = Math.ceil(usual?.completionTokens ?? 0);
  const hold = preConsumeQuota(
    pricing,
    { promptTokens: promptEstimate, maxTokens: parsed.maxTokens, floorTokens: options.getNumber('PreConsumedQuota'), calls: parsed.calls },
    tables.quotaPerUnit,
  );
  const ceiling = completionCeiling(endpoint, parsed, options);
  const worstCase = worstCaseQuota(pricing, promptEstimate, ceiling, hold);
  // A fixed price is known; a model whose answers nobody has seen yet has no expected cost (0).
  const expected = pricing.usePrice ? worstCase : usual === undefined ? 0 : estimatedQuota(pricing, usualPrompt, Math.min(ceiling, usualCompletion));
  let reserved = services.ledger.reserve(caller.token, caller.user, hold, worstCase, expected);
  if (reserved instanceof Promise) reserved = await reserved;
  if (!reserved.ok) throw quotaRefusal(reserved.refusedBy);
  // Replaced by a larger hold when a channel's param_override asks the upstream for more output.
  const held: HeldRequest = { reservation: reserved.reservation, outputTokens: parsed.maxTokens };
  // Only an attempt on a channel with a param_override can need it (read then, off the hot path).
  const holdTerms = (): HoldTerms => ({
    pricing,
    promptTokens: promptEstimate,
    floorTokens: options.getNumber('PreConsumedQuota'),
    calls: parsed.calls,
    quotaPerUnit: tables.quotaPerUnit,
    usual: usual === undefined ? undefined : { prompt: usualPrompt, completion: usualCompletion },
    token: caller.token,
    user: caller.user,
  });
  const tried = new Set<number>();
  const triedOrder: number[] = [];
  const extraOther: Record<string, unknown> = {};
  if (scope.modelsTried.length > 1) Object.assign(extraOther, { fallback_chain: [...scope.modelsTried], requested_model: scope.requestedModel });
  if (scope.autoGroup) extraOther.auto_group = caller.usingGroup;
  if (cachePlan) extraOther.response_cache = 'miss';
  let lastError: RelayError | undefined;
  let lastRetryable = true;
  /**
   * The charge of the attempt that answered, with its consume log; once (the ledger ignores a second
   * settle). Returns what the answer's last bytes wait for: the charge written to the journal.
   */
  const settle = (channel: ChannelRecord, result: ChargedAttempt): Promise<void> | undefined => {
    const { reservation } = held;
    if (reservation.state !== 'held') return undefined;
    const localCount = result.usage === undefined;
    const usage = billedUsage(parsed, result);
    const quota = computeQuota(pricing, usage, tables.quotaPerUnit, parsed.calls);
    scope.limitPermit.charged(usage);
    if (!localCount) services.expectedUsage.observe(parsed.model, usage.promptTokens - promptEstimate, usage.completionTokens);
    const finishedAt = clock.now();
    const log = options.getBoolean('LogConsumeEnabled')
      ? consumeLogEntry({
          caller,
          model: parsed.model,
          upstreamModel: result.upstreamModel,
          pricing,
          usage,
          quota,
          channelId: channel.id,
          triedChannels: triedOrder,
          stream: parsed.stream,
          startedAt,
          finishedAt,
          firstResponseMs: result.firstResponseMs,
          requestId: request.id,
          requestPath: callerPath(request),
          localCount,
          endReason: result.endReason,
          warnings: result.warnings,
          createdAt: clock.unixSeconds(),
          extraOther,
        })
      : undefined;
    const journaled = services.ledger.settle(reservation, quota, channel.id, log);
    trace?.settled({ quota, usage, upstreamModel: result.upstreamModel, firstResponseMs: result.firstResponseMs, stream: parsed.stream }, journaled);
    return journaled;
  };
  try {
    trace?.held(held.reservation.amount);
    // Undefined (no work) unless the token or user has a budget; a refusal refunds and throws.
    const budgetHold = services.budgets.keeper.hold(held.reservation, worstCase);
    if (budgetHold) await budgetHold;
    const retryTimes = caller.pinnedChannelId === undefined ? Math.max(0, options.getNumber('RetryTimes')) : 0;
    const headers = answerHeaders(request.id, parsed.model, cachePlan);
    for (let attempt = 0; attempt <= retryTimes; attempt += 1) {
      let next = nextAdmitted(services, caller, parsed.model, attempt, tried);
      if (next instanceof Promise) next = await next;
      if (!next) break;
      const { channel, keyIndex } = next;
      if (callerGone.aborted) {
        lastError = callerGoneError();
        lastRetryable = false;
        break;
      }
      tried.add(channel.id);
      triedOrder.push(channel.id);
      const attemptTrace = trace?.attempt(channel, attempt);
      const capture = cachePlan?.write ? new AnswerCapture(cachePlan.rule.max_bytes) : undefined;
      reply.header('x-switchboard-model', parsed.model);
      if (cachePlan) reply.header('x-switchboard-cache', 'miss');
      const attemptRun = attemptUpstream({
        endpoint,
        parsed,
        channel,
        reply,
        requestId: request.id,
        startedAt,
        now: () => clock.now(),
        headersTimeoutMs: services.timeouts.headersMs,
        streamTimeoutMs: services.timeouts.streamMs,
        relayTimeoutMs: services.timeouts.relayMs,
        firstByteTimeoutMs: channel.firstByteTimeoutMs ?? services.timeouts.firstByteMs,
        // What a stream announces before the upstream's count arrives (Anthropic's message_start):
        // the prompt estimate plus what this model's prompts lately cost beyond it (chat templates,
        // tool definitions), never less than the estimate of the whole prompt.
        promptTokensEstimate: Math.max(promptEstimate, usualPrompt),
        sensitive: services.sensitive,
        extraHeaders: headers,
        random: services.random,
        keyIndex,
        callerGone,
        // Settled before the answer's last bytes go out: a client never has a whole answer whose
        // charge is not in the journal.
        settle: (charged) => settle(channel, charged),
        payload,
        trace: attemptTrace,
        capture,
        callerHeaders: request.headers,
        raiseHold:
          channel.shaping?.paramOverride === undefined
            ? undefined
            : (outputTokens) => raiseHold(services.ledger, services.budgets.keeper, held, holdTerms(), outputTokens),
      });
      // Counted for the routing strategies (in flight, first byte, tokens); nothing under `weighted`.
      const result: AttemptResult = await routedAttempt(services.router, channel, keyIndex, parsed.model, startedAt, attemptRun);
      attemptTrace?.finished(result);
      services.breakers.record(channel, keyIndex, breakerOutcome(result));
      if (result.kind === 'charged') {
        if (payload)
          services.payloads.record(payload, {
            requestId: request.id,
            userId: caller.user.id,
            tokenId: caller.token?.id ?? 0,
            createdAt: clock.unixSeconds(),
            stream: parsed.stream,
          });
        // Answers that never reached the caller (it left, or gets an error instead) settle here.
        void settle(channel, result);
        // Charged, yet answered with an error: the entry renders it in the caller's own format.
        if (result.callerError) throw result.callerError;
        // Only whole answers are kept: a stream that was cut or stopped is never replayed.
        if (cachePlan && capture && !capture.overflowed && (result.endReason === 'done' || result.endReason === 'complete'))
          services.responseCache.save(cachePlan, {
            kind: capture.kind,
            contentType: capture.contentType,
            servedModel: parsed.model,
            usage: billedUsage(parsed, result),
            body: capture.body,
          });
        return { served: true };
      }
      lastError = result.error;
      lastRetryable = result.retryable;
      if (result.disablesChannel) services.health.disableAfterError(channel, result.error.message);
      if (!result.retryable) break;
    }
  } finally {
    services.ledger.refund(held.reservation);
    trace?.released();
  }
  if (!lastError) return { served: false, error: noChannelError(services.channels, caller, parsed.model), fallsBack: true, contextWindow: false };
  const contextWindow = isContextLengthRefusal(lastError);
  return { served: false, error: lastError, fallsBack: lastRetryable && lastError.code !== 'client_gone', contextWindow };
}
