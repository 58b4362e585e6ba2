import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { ChannelRecord } from '../cache/channel-cache.ts';
import {
  RequestNotConvertible,
  type AnswerLimits,
  type ChannelTarget,
  type ConversionContext,
  type RelayRequest,
  type TransportOptions,
  type UpstreamRequest,
  type UpstreamResponse,
  type WholeUpstreamAnswer,
} from '../provider.ts';
import { relayMessages } from '../relay.messages.ts';
import { httpTransport } from '../transport/http-transport.ts';
import { isRetryableStatus, mapModel, mapStatus } from './channel-selector.ts';
import type { RelayEndpoint } from './relay-endpoints.ts';
import { maskSecrets, RelayError } from '../../../core/http/relay-error.ts';
import type { ParsedRelayBody } from './request-reader.ts';
import { withTopLevelFields } from './top-level-fields.ts';
import type { AttemptTrace } from '../../../core/platform/tracing/request-trace.ts';
import type { SensitiveWords } from './sensitive-words.ts';
import { readFirstChunk, relayStream, type StreamOutcome } from './stream-response.ts';
import { failed, callerGoneError, type AttemptResult, type ChargedAttempt, type SentRequest } from './attempt-result.ts';
import { noFirstByteWatch, watchFirstByte } from './first-byte-watch.ts';
import { sendNativeAnswer, sendWholeAnswer } from './whole-answer.ts';
import type { PayloadCapture } from '../../../domain/logs/payloads/payload-capture.ts';
import type { AnswerCapture } from '../response-cache/answer-capture.ts';
import { callerRequestOf } from './answer-format.ts';
import { shapeUpstreamRequest } from './channel-request-shaping/shape-upstream-request.ts';
import type { SystemPromptDialect } from './channel-request-shaping/system-prompt.ts';

/** Largest upstream answer read whole (non-streamed: images in base64 can be large), and of an error answer. */
const answerLimits: AnswerLimits = { answerBytes: 64 * 1024 * 1024, errorBytes: 64 * 1024 };

export interface AttemptInput {
  readonly endpoint: RelayEndpoint;
  readonly parsed: ParsedRelayBody;
  readonly channel: ChannelRecord;
  readonly reply: FastifyReply;
  readonly requestId: string;
  readonly startedAt: number;
  readonly now: () => number;
  readonly headersTimeoutMs: number;
  readonly streamTimeoutMs: number;
  readonly relayTimeoutMs: number;
  /**
   * The most the upstream may take to send its first byte (headers; a stream's first chunk), 0 for no
   * limit. Past it the attempt is abandoned, charged nothing, and may be retried on another channel.
   */
  readonly firstByteTimeoutMs?: number;
  readonly promptTokensEstimate: number;
  readonly sensitive: SensitiveWords;
  /** Response headers a hijacked (streamed) reply must carry itself. */
  readonly extraHeaders: Record<string, string>;
  readonly random: () => number;
  /** The key of a multi-key channel to use (the breaker picks among keys not cooling down); random when absent. */
  readonly keyIndex?: number;
  /** Fires when the caller has gone: the upstream call is aborted and nothing more is tried. */
  readonly callerGone: AbortSignal;
  /**
   * Settles a charged attempt before the answer's last bytes are handed to the caller, so a process
   * killed after that point has the charge in its journal. The last bytes wait for the promise it
   * may return (the journal's write). The result returned later is the same.
   */
  readonly settle?: (charged: ChargedAttempt) => Promise<void> | undefined;
  /** Present when this request's payload is logged: receives the answer as the caller gets it. */
  readonly payload?: PayloadCapture | undefined;
  /** This attempt's span when tracing is on: it adds `traceparent` to the upstream request. */
  readonly trace?: AttemptTrace | undefined;
  /** Present when a response-cache rule applies and may store the answer: receives the bytes the caller gets. */
  readonly capture?: AnswerCapture | undefined;
  /** The caller's request headers (a channel's param_override may pass some of them on). */
  readonly callerHeaders?: IncomingHttpHeaders | undefined;
  /**
   * Called before sending when the channel's param_override raised the output ceiling the upstream is
   * asked for: the pre-charge hold grows to cover it, or the returned error refuses the request.
   */
  readonly raiseHold?: ((outputTokens: number) => Promise<RelayError | undefined> | RelayError | undefined) | undefined;
}

/**
 * Reads a body to the end, up to a size (what is past the limit is dropped and the body destroyed).
 * Plain events rather than `for await`: the async iterator cost an allocation-heavy object per request.
 */
function readBody(body: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = () => {
      settled = true;
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      body.off('data', onData);
      finish();
      body.destroy();
    };
    body.on('data', onData);
    body.once('end', finish);
    body.once('error', (error) => {
      settled = true;
      reject(error);
    });
    // A body closed before its end, without an error, was cut.
    body.once('close', () => {
      if (!settled) reject(Object.assign(new Error('upstream body closed before its end'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
}

/**
 * The caller left after the request went to the upstream, before any answer byte: the upstream may
 * already be generating (and billing the channel), so the prompt is charged, counted locally, never
 * zero and never the whole hold. A per-call price is charged whole: the upstream got the call.
 */
function abandonedAfterSending(sent: SentRequest): AttemptResult {
  return {
    kind: 'charged',
    usage: undefined,
    localCompletionTokens: 0,
    firstResponseMs: undefined,
    upstreamModel: sent.upstreamModel,
    endReason: 'client_gone',
    warnings: sent.warnings,
    callerError: callerGoneError(),
  };
}

/**
 * A failure to reach or read the upstream after sending: timeouts are not retried (the upstream may
 * have served them); a caller who left caused the abort, and is charged for the request sent.
 */
function transportFailure(error: unknown, callerGone: AbortSignal, sent: SentRequest): AttemptResult {
  if (callerGone.aborted) return abandonedAfterSending(sent);
  const code = (error as { code?: string }).code ?? '';
  const name = (error as { name?: string }).name ?? '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || name === 'TimeoutError' || name === 'AbortError') {
    return failed(new RelayError(504, 'upstream_timeout', relayMessages.upstreamTimeout), false);
  }
  return failed(new RelayError(502, 'do_request_failed', relayMessages.upstreamUnreachable), true);
}

/** Nothing came, so nothing was generated for the caller: not charged, and another channel may answer. */
function firstByteFailure(limitMs: number): AttemptResult {
  return failed(new RelayError(504, 'first_byte_timeout', relayMessages.firstByteTimeout, { params: { seconds: String(Math.round(limitMs / 1000)) } }), true);
}

/**
 * The caller's body for this channel: model mapping applied, stream usage asked for. A channel with
 * body pass-through on gets the caller's body as it came (new-api: no mapping, nothing added).
 */
function requestFor(input: AttemptInput): RelayRequest {
  const { parsed, endpoint, channel } = input;
  const passThrough = channel.shaping?.passThroughBody === true;
  const upstreamModel = passThrough ? parsed.model : mapModel(channel.modelMapping, parsed.model);
  let body = parsed.body;
  const edits: Record<string, unknown> = {};
  if (body && upstreamModel !== parsed.model) edits.model = upstreamModel;
  if (body && !passThrough && parsed.stream && endpoint.stream === 'chat' && !parsed.wantsStreamUsage) {
    const streamOptions = typeof body.stream_options === 'object' && body.stream_options !== null ? body.stream_options : {};
    edits.stream_options = { ...streamOptions, include_usage: true };
  }
  let rawBody = parsed.rawBody;
  let changed = parsed.bodyChanged;
  if (body && Object.keys(edits).length > 0) {
    body = { ...body, ...edits };
    // The caller's bytes with the edits spliced in (see top-level-fields.ts), not the whole body serialised again.
    const spliced = changed ? undefined : withTopLevelFields(rawBody, edits);
    if (spliced) rawBody = spliced;
    else changed = true;
  }
  return {
    capability: endpoint.capability,
    path: endpoint.path,
    contentType: parsed.contentType,
    rawBody,
    body,
    bodyChanged: changed,
    model: parsed.model,
    upstreamModel,
    stream: parsed.stream,
  };
}

/**
 * Where new-api puts a channel's system prompt: chat requests only, in an OpenAI-format upstream's
 * `messages` or a Claude upstream's `system`. Other dialects (Gemini, Bedrock's and Vertex's
 * Claude, the other native vendors) and other endpoints are sent without it.
 */
function systemPromptDialect(
  endpoint: RelayEndpoint,
  providerId: string,
  capability: { readonly response: { readonly kind: string } },
): SystemPromptDialect | undefined {
  if (endpoint.capability !== 'chat') return undefined;
  if (capability.response.kind === 'pass-through') return 'openai-chat';
  return providerId === 'claude' ? 'claude' : undefined;
}

async function upstreamFailure(response: UpstreamResponse | WholeUpstreamAnswer, input: AttemptInput, target: ChannelTarget): Promise<AttemptResult> {
  const raw = Buffer.isBuffer(response.body) ? response.body : await readBody(response.body, answerLimits.errorBytes).catch(() => Buffer.alloc(0));
  const text = raw.toString('utf8');
  const parsedBody = safeParseJson(text);
  const provider = input.channel.provider;
  const upstream = provider
    ? provider.parseError(response.statusCode, parsedBody.ok ? parsedBody.value : text)
    : { status: response.statusCode, message: text, type: 'upstream_error', code: '', disablesChannel: false };
  const status = mapStatus(input.channel.statusCodeMapping, response.statusCode);
  const message = maskSecrets(upstream.message, [...input.channel.keys, target.baseUrl]);
  const error = new RelayError(status, upstream.code || 'bad_response_status_code', message, { type: upstream.type || 'upstream_error' });
  return failed(error, upstream.retryable ?? isRetryableStatus(status), upstream.disablesChannel);
}

/**
 * One call of one channel: builds the upstream request with the channel's provider, sends it, and
 * either answers the caller (streamed or whole) or reports a classified failure so the pipeline can
 * try another channel. Nothing is written to the caller before the upstream's first byte. A caller
 * who leaves before the request is sent costs nothing; after that, see `abandonedAfterSending`.
 */
export async function attemptUpstream(input: AttemptInput): Promise<AttemptResult> {
  const { channel, endpoint, reply } = input;
  const provider = channel.provider;
  const capability = provider?.[endpoint.capability];
  if (!provider || !capability)
    return failed(new RelayError(400, 'unsupported_capability', relayMessages.unsupportedCapability, { params: { path: endpoint.path } }), true);
  const relayRequest = requestFor(input);
  const target: ChannelTarget = {
    id: channel.id,
    type: channel.type,
    baseUrl: channel.baseUrl,
    key: channel.keys[input.keyIndex ?? Math.floor(input.random() * channel.keys.length)] ?? '',
    organization: channel.organization,
    other: channel.other,
  };
  // A caller of the vendor's own dialect gets the vendor's answer as it is (one property read on the OpenAI path).
  const nativeDialect = endpoint.answerFormat?.native;
  const native = nativeDialect === undefined ? undefined : capability.nativeAnswer?.(nativeDialect, relayRequest.upstreamModel);
  let built: UpstreamRequest;
  try {
    built = capability.buildRequest(relayRequest, target);
  } catch (error) {
    if (!(error instanceof RequestNotConvertible)) throw error;
    return failed(
      new RelayError(400, 'invalid_request', relayMessages.requestNotConvertible, { params: { reason: error.message }, type: 'invalid_request_error' }),
      false,
    );
  }
  let upstreamModel = relayRequest.upstreamModel;
  if (channel.shaping) {
    const shaped = shapeUpstreamRequest(built, {
      shaping: channel.shaping,
      apiKey: target.key,
      systemPromptDialect: systemPromptDialect(endpoint, provider.id, capability),
      callerBodies: [relayRequest.body, callerRequestOf(relayRequest.body, 'anthropic') as Record<string, unknown> | undefined],
      callerHeaders: input.callerHeaders,
    });
    if (shaped.refused) {
      const { status, code, message, type, retryable } = shaped.refused;
      return failed(new RelayError(status, code, message, { type }), retryable);
    }
    if (shaped.outputTokens !== undefined && input.raiseHold) {
      let refusal = input.raiseHold(shaped.outputTokens);
      if (refusal instanceof Promise) refusal = await refusal;
      // The balance cannot cover what this channel would ask for: refused as at the first hold.
      if (refusal) return failed(refusal, false);
    }
    built = shaped.request;
    // The charge and the log follow the model the upstream was asked for.
    if (shaped.upstreamModel) upstreamModel = shaped.upstreamModel;
  }
  const upstreamRequest = input.trace ? input.trace.sending(built) : built;
  if (input.callerGone.aborted) return failed(callerGoneError(), false);
  const sent: SentRequest = { upstreamModel, warnings: upstreamRequest.warnings ?? [] };
  const transport = provider.transport ?? httpTransport;
  const firstByteMs = input.firstByteTimeoutMs ?? 0;
  // A whole answer over plain HTTP: its first byte is its headers, so undici's own headers timer is
  // the limit and the attempt arms no timer of its own (the relay's hot path).
  const limitedByHeaders = firstByteMs > 0 && !relayRequest.stream && transport === httpTransport && firstByteMs <= input.headersTimeoutMs;
  // Without a limit of ours to enforce the caller's own signal is the request's; otherwise one controller
  // aborts the request for any of them.
  const controller = input.relayTimeoutMs > 0 || (firstByteMs > 0 && !limitedByHeaders) ? new AbortController() : undefined;
  const relayTimer = controller && input.relayTimeoutMs > 0 ? setTimeout(() => controller.abort(), input.relayTimeoutMs) : undefined;
  const firstByte = controller && firstByteMs > 0 && !limitedByHeaders ? watchFirstByte(firstByteMs, Date.now(), controller) : noFirstByteWatch;
  const abortOnCallerGone = controller ? () => controller.abort() : undefined;
  if (abortOnCallerGone) input.callerGone.addEventListener('abort', abortOnCallerGone, { once: true });
  try {
    const sendOptions: TransportOptions = {
      signal: controller ? controller.signal : input.callerGone,
      headersTimeoutMs: limitedByHeaders ? firstByteMs : input.headersTimeoutMs,
      bodyTimeoutMs: input.streamTimeoutMs,
      target,
    };
    // A whole answer is read whole by a transport that can: no response stream on the hot path. Not
    // when something must see its headers arrive before its body: a first-byte watch, a trace.
    const readWhole = !relayRequest.stream && firstByte === noFirstByteWatch && input.trace === undefined;
    let response: UpstreamResponse | WholeUpstreamAnswer;
    try {
      response =
        readWhole && transport.sendWhole
          ? await transport.sendWhole(upstreamRequest, sendOptions, answerLimits)
          : await transport.send(upstreamRequest, sendOptions);
    } catch (error) {
      if (!input.callerGone.aborted && (firstByte.missed || (limitedByHeaders && (error as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT')))
        return firstByteFailure(firstByteMs);
      return transportFailure(error, input.callerGone, sent);
    }
    const { body } = response;
    // Headers are a first byte; a stream's first chunk is awaited under the same limit below.
    if (!relayRequest.stream || response.statusCode >= 400 || Buffer.isBuffer(body)) firstByte.arrived();
    else firstByte.watch(body);
    input.trace?.responded(response.statusCode);
    if (response.statusCode >= 400) return await upstreamFailure(response, input, target);
    const context: ConversionContext = {
      model: relayRequest.model,
      upstreamModel: sent.upstreamModel,
      requestId: input.requestId,
      createdAt: Math.floor(input.startedAt / 1000),
    };

    if (relayRequest.stream && !Buffer.isBuffer(body)) {
      const first = await readFirstChunk(body);
      firstByte.arrived();
      if (firstByte.missed && !input.callerGone.aborted) return firstByteFailure(firstByteMs);
      if ('error' in first) return transportFailure(first.error, input.callerGone, sent);
      if ('end' in first) return failed(new RelayError(502, 'empty_response', relayMessages.badResponseBody), true);
      const firstResponseMs = input.now() - input.startedAt;
      // A caller who left meanwhile is seen by relayStream, which still counts the first chunk.
      reply.hijack();
      const contentType = endpoint.answerFormat?.streamContentType ?? 'text/event-stream; charset=utf-8';
      input.capture?.tapStream(reply.raw, contentType);
      const charged = (outcome: StreamOutcome): ChargedAttempt => ({
        kind: 'charged',
        usage: outcome.usage,
        localCompletionTokens: outcome.localCompletionTokens,
        firstResponseMs,
        upstreamModel: sent.upstreamModel,
        endReason: outcome.endReason,
        warnings: sent.warnings,
      });
      const outcome = await relayStream({
        upstream: body,
        abortUpstream: () => {
          body.destroy();
          controller?.abort();
        },
        response: reply.raw,
        handling: capability.response,
        dialect: endpoint.stream === 'responses' ? 'responses' : 'chat',
        callerWantsUsage: input.parsed.wantsStreamUsage,
        promptTokensEstimate: input.promptTokensEstimate,
        context,
        headers: input.extraHeaders,
        contentType,
        firstChunk: first.chunk,
        ...(native ? { native, nativeFraming: endpoint.answerFormat?.nativeFraming } : endpoint.answerFormat ? { answerFormat: endpoint.answerFormat } : {}),
        ...(input.sensitive.checksCompletion ? { sensitive: input.sensitive } : {}),
        beforeEnd: (ended) => input.settle?.(charged(ended)),
        onCallerText: input.payload?.addStreamText,
      });
      return charged(outcome);
    }

    let raw: Buffer;
    try {
      raw = Buffer.isBuffer(body) ? body : await readBody(body, answerLimits.answerBytes);
    } catch (error) {
      return transportFailure(error, input.callerGone, sent);
    }
    if (native) return await sendNativeAnswer(input, native, response, raw, context, sent);
    return await sendWholeAnswer(input, capability.response, response, raw, context, sent);
  } finally {
    firstByte.arrived();
    if (relayTimer) clearTimeout(relayTimer);
    if (abortOnCallerGone) input.callerGone.removeEventListener('abort', abortOnCallerGone);
  }
}
