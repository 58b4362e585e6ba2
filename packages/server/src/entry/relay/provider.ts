import type { Readable } from 'node:stream';
import type { SseEvent } from '@switchboard/contracts';
import type { BilledUsage } from '../../domain/billing/pricing.ts';

/**
 * The contract between the relay pipeline and one upstream vendor.
 *
 * A provider is one folder under `relay/providers/<id>/` exporting one `Provider` object and one line
 * in `providers/index.ts`. It declares which channel types it serves and, per caller endpoint, an
 * optional capability. A missing capability means "this vendor cannot do that": the pipeline answers
 * with an `unsupported_capability` error, so no provider ever carries a "not implemented" stub.
 *
 * Everything a capability does is pure (build the upstream request, read usage, convert a body or an
 * event, classify an error). The pipeline owns every side effect: choosing the channel, model
 * mapping, calling the transport, timing, retries (`UpstreamError.retryable`), auto-disable
 * (`UpstreamError.disablesChannel`), billing and logging. Providers must not import the database,
 * the console API or billing (lint-enforced).
 */
export interface Provider {
  /** Equals the folder name, e.g. 'openai', 'deepseek'. */
  readonly id: string;
  /** The `channels.type` numbers (contracts/channel-types.ts) this provider relays. */
  readonly channelTypes: readonly number[];
  /** How requests reach the vendor; absent means plain HTTP(S) through the shared undici pool. */
  readonly transport?: Transport;
  /** POST /v1/chat/completions (and the playground). */
  readonly chat?: EndpointCapability;
  /** POST /v1/completions (legacy text completions). */
  readonly completions?: EndpointCapability;
  /** POST /v1/embeddings. */
  readonly embeddings?: EndpointCapability;
  /** POST /v1/images/generations, /edits and /variations (the caller path tells them apart). */
  readonly images?: EndpointCapability;
  /** POST /v1/audio/speech, /transcriptions and /translations. */
  readonly audio?: EndpointCapability;
  /** POST /v1/moderations. */
  readonly moderations?: EndpointCapability;
  /** POST /v1/rerank. */
  readonly rerank?: EndpointCapability;
  /** POST /v1/responses (OpenAI Responses API). */
  readonly responses?: EndpointCapability;
  /** Reads an error answer (status >= 400) into a typed error. Pure. */
  parseError(status: number, body: unknown): UpstreamError;
  /** The models the upstream account offers (console "fetch models"). */
  readonly listModels?: (target: ChannelTarget, call: AccountCall) => Promise<string[]>;
  /** The remaining upstream balance in US dollars, or the vendor's currency (console "update balance"). */
  readonly fetchBalance?: (target: ChannelTarget, call: AccountCall) => Promise<number>;
}

/**
 * What a console-side question to the vendor's account API (model list, balance) gets besides the
 * channel: how to send, and the time (balance readers bound their usage window by it).
 */
export interface AccountCall {
  readonly transport: Transport;
  readonly nowMs: number;
  readonly timeoutMs: number;
}

/** The capability names, which are also the keys of `Provider`. */
/**
 * Thrown by `buildRequest` when the caller's request cannot be said in the channel's format (a
 * function tool without a name, for instance): the caller made the mistake, so it gets a 400 in its
 * own format rather than a 500, and no other channel is tried.
 */
export class RequestNotConvertible extends Error {
  /** From the first problem a schema found: where it is and what is wrong (`tools.0.function.name: …`). */
  static fromIssue(vendor: string, issue: { readonly path: readonly PropertyKey[]; readonly message: string } | undefined): RequestNotConvertible {
    if (!issue) return new RequestNotConvertible(`${vendor}: invalid body`);
    const where = issue.path.map(String).join('.');
    return new RequestNotConvertible(`${vendor}: ${where ? `${where}: ` : ''}${issue.message}`);
  }
}

export type CapabilityName = 'chat' | 'completions' | 'embeddings' | 'images' | 'audio' | 'moderations' | 'rerank' | 'responses';

/** One caller endpoint served by one provider. */
export interface EndpointCapability {
  /** Pure: the upstream url, headers and body for this caller request on this channel. */
  buildRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest;
  /** How a successful upstream answer becomes the caller's answer. */
  readonly response: PassThroughResponse | ConvertedResponse;
  /**
   * The vendor's own answer for a caller who speaks the vendor's dialect (Anthropic callers on Claude
   * channels, Gemini callers on Gemini channels), or undefined when this channel answers `dialect`
   * only through the OpenAI pivot. Asked only for callers of `/v1/messages` and `/v1beta/models/…`.
   */
  nativeAnswer?(dialect: NativeDialect, upstreamModel: string): NativeAnswer | undefined;
}

/** The dialects a caller can speak besides OpenAI's, and that some vendors speak natively. */
export type NativeDialect = 'anthropic' | 'gemini';

/**
 * The caller speaks the vendor's own dialect: the answer goes back as the vendor wrote it (every
 * block, known or added tomorrow), and only usage is read from it. Pure, like the other answer kinds.
 */
export interface NativeAnswer {
  readonly dialect: NativeDialect;
  /** Usage in a complete JSON answer. */
  usageOf(body: unknown): NormalizedUsage | undefined;
  /** The generated text of a complete answer or of one parsed stream event (local counting, word checks). */
  textOf(value: unknown): string;
  /** Starts reading the usage of one stream; it sees every event's raw data and parses only what it needs. */
  createStreamUsage(): NativeStreamUsage;
  /**
   * The answer (or one stream event's data) with the model renamed to what the caller asked for, or
   * undefined when it names no model this way (then it goes out untouched).
   */
  withCallerModel(value: unknown, model: string): unknown;
  /** True when one stream event's raw data may name the model (only those are parsed for renaming). */
  namesModel(data: string): boolean;
  /**
   * The dialect's own in-stream error, for a stream cut short or stopped on a sensitive word: its
   * JSON, and its SSE event name when the dialect names events. Framed by the caller's framing (an
   * SSE event, or the last element of Gemini's JSON array).
   */
  streamError(reason: 'interrupted' | 'sensitive', message: string): NativeStreamError;
}

export interface NativeStreamError {
  readonly event?: string;
  readonly data: string;
}

export interface NativeStreamUsage {
  /** One stream event's raw data. */
  push(data: string): void;
  /** True once some event carried usage (local counting is then not needed). */
  readonly seen: boolean;
  /** The usage so far (usually complete after the last event). */
  usage(): NormalizedUsage | undefined;
}

/**
 * The upstream already speaks the caller's (OpenAI) format: bytes are forwarded untouched and only
 * usage is read (the whole JSON body when not streamed; only the usage frame of a stream). This is
 * the fast path that every OpenAI-compatible vendor uses.
 */
export interface PassThroughResponse {
  readonly kind: 'pass-through';
  /** Usage in a complete JSON answer, or in one parsed stream event's data. */
  extractUsage(body: unknown): NormalizedUsage | undefined;
  /** The generated text in one parsed stream event's data, for local counting when no usage arrives. */
  extractStreamText(data: unknown): string;
}

/**
 * The upstream speaks another format (Claude Messages, Gemini, …): the provider converts each answer
 * into OpenAI's format. Used by native providers; the pipeline writes what `convert*` returns.
 */
export interface ConvertedResponse {
  readonly kind: 'convert';
  /** A complete upstream JSON answer → the caller's JSON answer plus usage. Pure. */
  convertResponse(body: unknown, context: ConversionContext): { body: unknown; usage?: NormalizedUsage };
  /**
   * A stateful converter for one stream. It is synchronous on purpose: one call per upstream event,
   * no async iterator per frame, so streaming stays inside the per-frame CPU budget.
   */
  createStreamConverter(context: ConversionContext): StreamConverter;
}

/**
 * Thrown by `convertResponse` when an answer's content cannot be converted at all. It carries the
 * upstream's usage, so the pipeline still bills what the upstream did and answers 502 instead of an
 * empty success.
 */
export class UnconvertibleAnswer extends Error {
  readonly usage: NormalizedUsage | undefined;

  constructor(message: string, usage: NormalizedUsage | undefined) {
    super(message);
    this.name = 'UnconvertibleAnswer';
    this.usage = usage;
  }
}

export interface StreamConverter {
  /** One upstream SSE event in; the OpenAI chunk objects (zero or more) to send out. */
  push(event: SseEvent): unknown[];
  /** Usage seen so far (usually complete after the last event). */
  usage(): NormalizedUsage | undefined;
  /** Text produced so far that usage did not cover yet, for local counting. */
  takeText(): string;
}

/** What converters may know about the request, nothing more. */
export interface ConversionContext {
  readonly model: string;
  readonly upstreamModel: string;
  readonly requestId: string;
  readonly createdAt: number;
}

/** One server-sent event as read from the upstream. */
export type { SseEvent };

/** The caller's request as the pipeline hands it to a capability (after model mapping). */
export interface RelayRequest {
  readonly capability: CapabilityName;
  /** The caller's path without query string, e.g. `/v1/chat/completions`. */
  readonly path: string;
  readonly contentType: string;
  /** The caller's bytes, forwarded as they are unless `bodyChanged`. */
  readonly rawBody: Buffer;
  /** The parsed JSON body (undefined for multipart bodies). Includes the pipeline's edits. */
  readonly body: Record<string, unknown> | undefined;
  /** True when the pipeline edited `body` (model mapping, forced stream usage): serialise `body`. */
  readonly bodyChanged: boolean;
  /** The model name the caller asked for. */
  readonly model: string;
  /** The model name the upstream gets (after the channel's model mapping). */
  readonly upstreamModel: string;
  readonly stream: boolean;
}

/** The channel as a provider sees it: where to send and with which credentials. */
export interface ChannelTarget {
  readonly id: number;
  readonly type: number;
  /** The channel's base_url, or the type's default; never with a trailing slash. */
  readonly baseUrl: string;
  readonly key: string;
  readonly organization: string;
  /** The type-specific `channels.other` value (Azure api-version, Vertex region, …). */
  readonly other: string;
}

export interface UpstreamRequest {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body?: Buffer | string;
  /** Parameters dropped or changed on the way; they go into the log entry's `other`. */
  readonly warnings?: readonly string[];
}

/**
 * Usage in OpenAI's semantics: `promptTokens` includes cached, cache-write and audio input tokens;
 * what billing prices (the same shape, see BilledUsage).
 */
export type NormalizedUsage = BilledUsage;

/** A failed upstream answer, classified by the provider; the pipeline acts on it. */
export interface UpstreamError {
  /** The upstream HTTP status (before the channel's status-code mapping). */
  readonly status: number;
  /** The upstream's own message; the pipeline masks secrets before anyone sees it. */
  readonly message: string;
  readonly type: string;
  readonly code: string;
  /** Explicit retry decision; when absent the pipeline decides from the status. */
  readonly retryable?: boolean;
  /** The channel's credentials are dead (invalid key, account disabled, no quota left). */
  readonly disablesChannel: boolean;
}

/** Sends one upstream request. The default is undici over the shared pool; signing vendors wrap it. */
export interface Transport {
  send(request: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse>;
  /**
   * Sends a request whose answer is wanted whole (not streamed) and reads it to the end, up to
   * `limits`. Optional: the pipeline reads `send`'s stream where a transport has none.
   */
  sendWhole?(request: UpstreamRequest, options: TransportOptions, limits: AnswerLimits): Promise<WholeUpstreamAnswer>;
}

/** How much of a whole answer is kept: an error answer is only read for its message. */
export interface AnswerLimits {
  readonly answerBytes: number;
  readonly errorBytes: number;
}

/** A whole upstream answer: its status, headers and bytes (read to the end or to its size limit). */
export interface WholeUpstreamAnswer {
  readonly statusCode: UpstreamResponse['statusCode'];
  readonly headers: UpstreamResponse['headers'];
  readonly body: Buffer;
}

export interface TransportOptions {
  readonly signal: AbortSignal;
  /** Time allowed until the response headers arrive. */
  readonly headersTimeoutMs: number;
  /** Time allowed between two body chunks (STREAMING_TIMEOUT for streams). */
  readonly bodyTimeoutMs: number;
  /**
   * The channel the request goes to. Signing transports need its credentials at send time: Bedrock
   * signs with the key's access key (SigV4), Vertex exchanges the service account for a token.
   */
  readonly target: ChannelTarget;
}

export interface UpstreamResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** A Node stream: the pipeline reads it without web streams on the hot path. */
  readonly body: Readable;
}
