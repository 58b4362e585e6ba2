import type { ServerResponse } from 'node:http';
import {
  defaultTextMapSetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} from '@opentelemetry/semantic-conventions';
import { genAi, operationName, providerName, switchboard } from './span-attributes.ts';

/** What a trace reads of a channel (a relay ChannelRecord fits): never its keys. */
export interface TracedChannel {
  readonly id: number;
  readonly name: string;
  readonly type: number;
  readonly provider?: { readonly id: string } | undefined;
}

export interface TracedCaller {
  readonly user: { readonly id: number };
  /** Absent for the playground, which bills the user only. */
  readonly token?: { readonly id: number } | undefined;
}

/** What a trace reads of an attempt's result (the pipeline's AttemptResult fits). */
export type TracedAttemptResult =
  { readonly kind: 'charged' } | { readonly kind: 'failed'; readonly error: { readonly code: string }; readonly retryable: boolean };

/** What a settled charge tells the trace. */
export interface TracedCharge {
  readonly quota: number;
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number; readonly cachedTokens?: number | undefined };
  readonly upstreamModel: string;
  /** Time to the first streamed chunk since the request arrived; undefined when nothing arrived. */
  readonly firstResponseMs: number | undefined;
  readonly stream: boolean;
}

/** The upstream request an attempt sends (the relay's UpstreamRequest fits). */
export interface TracedUpstreamRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
}

/**
 * The SERVER span of one request, and for relay requests its children: one CLIENT span per channel
 * attempt and one for the billing settle. Created only when tracing is on; the relay holds it as
 * an optional value, so with tracing off its call sites cost one undefined check each.
 */
export class RequestTrace {
  private readonly tracer: Tracer;
  private readonly propagator: TextMapPropagator;
  private readonly span: Span;
  private readonly context: Context;
  /** The relay pipeline holds quota: the span waits for it to settle or refund before it ends. */
  private pipelineRunning = false;
  private responseClosed = false;
  private ended = false;
  /** A failed attempt whose span ends once it is known whether another attempt follows (the retry reason). */
  private failedAttempt: { span: Span; endTime: number; reason: string } | undefined;
  /** The provider of the attempt under way: the one a settle during it charges for. */
  private currentProvider: string | undefined;

  constructor(tracer: Tracer, propagator: TextMapPropagator, span: Span) {
    this.tracer = tracer;
    this.propagator = propagator;
    this.span = span;
    this.context = trace.setSpan(ROOT_CONTEXT, span);
  }

  /** Names the span after the GenAI operation (`chat gpt-4o`) once the body is read. */
  describe(capability: string, request: { readonly model: string; readonly stream: boolean }, caller: TracedCaller): void {
    const operation = operationName(capability);
    this.span.updateName(request.model ? `${operation} ${request.model}` : operation);
    this.span.setAttributes({
      [genAi.operationName]: operation,
      [genAi.requestModel]: request.model,
      [genAi.requestStream]: request.stream,
      [switchboard.userId]: caller.user.id,
    });
    if (caller.token) this.span.setAttribute(switchboard.tokenId, caller.token.id);
  }

  /** Quota is held: from here the pipeline always ends in `released`. */
  held(quota: number): void {
    this.pipelineRunning = true;
    this.span.setAttribute(switchboard.quotaHeld, quota);
  }

  /** A CLIENT span for the call of one channel; `attemptIndex` counts from 0. */
  attempt(channel: TracedChannel, attemptIndex: number): AttemptTrace {
    if (this.failedAttempt) this.endFailedAttempt(true);
    const provider = channel.provider ? providerName(channel.provider.id) : undefined;
    this.currentProvider = provider;
    const span = this.tracer.startSpan(
      `attempt ${attemptIndex + 1} ${channel.name}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [switchboard.attempt]: attemptIndex + 1,
          [switchboard.channelId]: channel.id,
          [switchboard.channelName]: channel.name,
          [switchboard.channelType]: channel.type,
          ...(provider ? { [genAi.providerName]: provider } : {}),
        },
      },
      this.context,
    );
    return new AttemptTrace(this, span);
  }

  /** Called by AttemptTrace when its call failed. */
  attemptFailed(span: Span, reason: string): void {
    this.failedAttempt = { span, endTime: Date.now(), reason };
  }

  /** The charge of the answer: usage on the request span, and a billing span that ends once the charge is journaled. */
  settled(charge: TracedCharge, journaled: Promise<void> | undefined): void {
    this.span.setAttributes({
      [genAi.responseModel]: charge.upstreamModel,
      [genAi.inputTokens]: charge.usage.promptTokens,
      [genAi.outputTokens]: charge.usage.completionTokens,
      [switchboard.quota]: charge.quota,
    });
    if (charge.usage.cachedTokens) this.span.setAttribute(genAi.cacheReadInputTokens, charge.usage.cachedTokens);
    if (this.currentProvider) this.span.setAttribute(genAi.providerName, this.currentProvider);
    if (charge.stream && charge.firstResponseMs !== undefined) this.span.setAttribute(genAi.timeToFirstChunk, charge.firstResponseMs / 1000);
    const billing = this.tracer.startSpan(
      'billing settle',
      {
        kind: SpanKind.INTERNAL,
        attributes: { [switchboard.quota]: charge.quota, [genAi.inputTokens]: charge.usage.promptTokens, [genAi.outputTokens]: charge.usage.completionTokens },
      },
      this.context,
    );
    if (!journaled) {
      billing.end();
      return;
    }
    journaled.then(
      () => billing.end(),
      () => {
        billing.setStatus({ code: SpanStatusCode.ERROR, message: 'charge journal write failed' });
        billing.end();
      },
    );
  }

  /** The pipeline has settled or refunded: the span may end (at once if the answer is already out). */
  released(): void {
    this.pipelineRunning = false;
    if (this.failedAttempt) this.endFailedAttempt(false);
    if (this.responseClosed) this.end();
  }

  /** The answer is out (or the caller left): status from the response, end unless the pipeline still runs. */
  responseEnded(response: ServerResponse): void {
    if (this.responseClosed) return;
    this.responseClosed = true;
    const status = response.statusCode;
    this.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
    // HTTP conventions: a server span is an error only for 5xx; 4xx is the caller's.
    if (status >= 500) {
      this.span.setAttribute(ATTR_ERROR_TYPE, String(status));
      this.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    if (!response.writableFinished) this.span.setAttribute(switchboard.callerGone, true);
    if (!this.pipelineRunning) this.end();
  }

  /** The upstream request with this attempt's `traceparent` (and `tracestate`) added. */
  inject(span: Span, request: TracedUpstreamRequest): Record<string, string> {
    const headers = { ...request.headers };
    this.propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, defaultTextMapSetter);
    return headers;
  }

  private endFailedAttempt(retried: boolean): void {
    const failed = this.failedAttempt;
    if (!failed) return;
    this.failedAttempt = undefined;
    if (retried) failed.span.setAttribute(switchboard.retryReason, failed.reason);
    failed.span.end(failed.endTime);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.span.end();
  }
}

/** The CLIENT span of one channel attempt. */
export class AttemptTrace {
  private readonly owner: RequestTrace;
  private readonly span: Span;
  private readonly startedAt = Date.now();
  private statusCode: number | undefined;

  constructor(owner: RequestTrace, span: Span) {
    this.owner = owner;
    this.span = span;
  }

  /** The request to send: upstream host recorded (never the path or query, which may hold a key), trace context injected. */
  sending<T extends TracedUpstreamRequest>(request: T): T {
    this.span.setAttribute(ATTR_HTTP_REQUEST_METHOD, request.method);
    const url = URL.parse(request.url);
    if (url) {
      this.span.setAttribute(ATTR_SERVER_ADDRESS, url.hostname);
      const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
      this.span.setAttribute(ATTR_SERVER_PORT, port);
    }
    return { ...request, headers: this.owner.inject(this.span, request) };
  }

  /** The upstream's status line and headers arrived: the time to first byte. */
  responded(statusCode: number): void {
    this.statusCode = statusCode;
    this.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, statusCode);
    this.span.setAttribute(switchboard.timeToFirstByteMs, Date.now() - this.startedAt);
    this.span.addEvent('first_byte');
  }

  finished(result: TracedAttemptResult): void {
    if (result.kind === 'charged') {
      this.span.end();
      return;
    }
    const { code } = result.error;
    this.span.setAttribute(ATTR_ERROR_TYPE, code);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: code });
    if (!result.retryable) {
      this.span.end();
      return;
    }
    // Ended by the owner once it knows whether another attempt follows (then with this reason).
    this.owner.attemptFailed(this.span, this.statusCode === undefined ? code : `${this.statusCode} ${code}`);
  }
}
