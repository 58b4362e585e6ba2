import type { ConversionContext, NativeDialect, NormalizedUsage } from '../provider.ts';

/**
 * How answers reach a caller who speaks another dialect than OpenAI's: Anthropic callers of
 * `/v1/messages`, Gemini callers of `/v1beta/models/…`. Their requests are converted to an OpenAI
 * chat request and relayed like any other (same channel choice, retries and billing); the answer,
 * whatever the channel spoke, is the OpenAI chat completion or chunk stream the channel's provider
 * produces, and this renders it in the caller's dialect. Pure: no I/O, one writer per stream.
 */
export interface AnswerFormat {
  /** A complete OpenAI chat completion → the caller's JSON answer. */
  convertAnswer(completion: unknown, context: ConversionContext): unknown;
  /** Starts rendering one stream. */
  createStreamWriter(context: ConversionContext, known: StreamKnowledge): AnswerStreamWriter;
  /** The content type of a streamed answer (default `text/event-stream`). */
  readonly streamContentType?: string;
  /**
   * The vendor dialect these answers are written in: a channel whose provider answers in it natively
   * (`EndpointCapability.nativeAnswer`) sends its answer through untouched instead of this format.
   */
  readonly native?: NativeDialect;
  /**
   * How the native answer's stream events reach the caller: as the vendor's SSE (absent), or as the
   * elements of Google's JSON array (`json-array`: Gemini's `streamGenerateContent` without `alt=sse`).
   */
  readonly nativeFraming?: NativeFraming;
}

export type NativeFraming = 'json-array';

/** What the relay knows while a stream runs, for writers that must say it before the end. */
export interface StreamKnowledge {
  /**
   * The usage so far: the upstream's once one of its frames reported usage (Claude and Gemini do on
   * their first frame), else the local prompt estimate with no completion yet.
   */
  usageSoFar(): NormalizedUsage;
}

export interface AnswerStreamWriter {
  /** One OpenAI chunk object (or `{error}` object) in; the caller's bytes out, '' for none. */
  push(chunk: unknown): string;
  /** The upstream stream ended; `usage` is what is billed. Returns the caller's closing bytes. */
  end(usage: NormalizedUsage | undefined): string;
}

/**
 * The caller's own request, kept beside the converted OpenAI body under a symbol key: JSON never
 * serialises it, so OpenAI-format channels get a clean OpenAI request, while a provider that speaks
 * the caller's dialect (Claude for Anthropic callers, Gemini for Gemini callers) sends the original
 * instead of a double conversion, keeping what OpenAI cannot express (prompt-caching marks,
 * thinking signatures, safety settings, top_k).
 */
export const callerRequestKey: unique symbol = Symbol('callerRequest');

export interface CallerRequest {
  readonly dialect: NativeDialect;
  readonly body: unknown;
  /** Dialect headers the caller sent that a same-dialect upstream honours (e.g. `anthropic-beta`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Returns `body` carrying the caller's original request. */
export function withCallerRequest<T extends Record<string, unknown>>(body: T, original: CallerRequest): T {
  return Object.assign(body, { [callerRequestKey]: original });
}

/** The caller's original request, when the body was converted from another dialect. */
export function callerRequestOf(body: Record<string, unknown> | undefined, dialect: CallerRequest['dialect']): unknown {
  const original = (body as { [callerRequestKey]?: CallerRequest } | undefined)?.[callerRequestKey];
  return original?.dialect === dialect ? original.body : undefined;
}

/** The caller's dialect headers, when the body was converted from that dialect. */
export function callerHeadersOf(body: Record<string, unknown> | undefined, dialect: CallerRequest['dialect']): Readonly<Record<string, string>> {
  const original = (body as { [callerRequestKey]?: CallerRequest } | undefined)?.[callerRequestKey];
  return original?.dialect === dialect ? (original.headers ?? {}) : {};
}
