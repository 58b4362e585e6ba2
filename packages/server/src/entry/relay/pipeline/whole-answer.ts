import { safeParseJson } from '../../../core/platform/safe-json.ts';
import {
  UnconvertibleAnswer,
  type ConversionContext,
  type ConvertedResponse,
  type NativeAnswer,
  type NormalizedUsage,
  type PassThroughResponse,
  type UpstreamResponse,
} from '../provider.ts';
import { relayMessages } from '../relay.messages.ts';
import { failed, type AttemptResult, type ChargedAttempt, type SentRequest } from './attempt-result.ts';
import { RelayError } from '../../../core/http/relay-error.ts';
import { countTextTokens } from './token-estimate.ts';
import type { AttemptInput } from './upstream-attempt.ts';

// The end of an attempt whose upstream answered whole (not streamed): the answer billed from its usage
// (or counted locally), checked for sensitive words, and sent in the caller's format or the vendor's own.

/** The text of an OpenAI-format answer (chat or completions), for local counting and word checks. */
function answerText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '';
  const object = value as Record<string, unknown>;
  if (typeof object.text === 'string') return object.text;
  if (!Array.isArray(object.choices)) return '';
  return object.choices
    .map((choice) => {
      const entry = choice as Record<string, unknown>;
      const message = entry?.message as Record<string, unknown> | undefined;
      return typeof message?.content === 'string' ? message.content : typeof entry?.text === 'string' ? entry.text : '';
    })
    .join('');
}

/**
 * A complete answer for a caller of the vendor's own dialect: sent as the vendor wrote it (the model
 * renamed back when mapping changed it), usage read from it. Nothing in its content can fail a
 * schema: unknown blocks go through untouched, and usage is read from `usage` alone.
 */
export async function sendNativeAnswer(
  input: AttemptInput,
  native: NativeAnswer,
  response: Pick<UpstreamResponse, 'headers'>,
  raw: Buffer,
  context: ConversionContext,
  sent: SentRequest,
): Promise<AttemptResult> {
  const firstResponseMs = input.now() - input.startedAt;
  const contentType = String(response.headers['content-type'] ?? 'application/json');
  const parsedBody = safeParseJson(raw.toString('utf8'));
  if (!parsedBody.ok) return failed(new RelayError(502, 'bad_response_body', relayMessages.badResponseBody), false);
  const usage = native.usageOf(parsedBody.value);
  const text = textNeeded(input, usage) ? native.textOf(parsedBody.value) : '';
  const renamed = context.model === context.upstreamModel ? undefined : native.withCallerModel(parsedBody.value, context.model);
  const outBody = renamed === undefined ? raw : JSON.stringify(renamed);
  const charged = wholeCharge(usage, text, firstResponseMs, sent);
  return deliverWholeAnswer(input, charged, text, outBody, contentType);
}

type WholeCharge = Omit<ChargedAttempt, 'endReason' | 'callerError'>;

/** Whether an answer's text is read: counted when the upstream reported no usage, or checked for sensitive words. Otherwise it would only be another copy of a long answer. */
function textNeeded(input: AttemptInput, usage: NormalizedUsage | undefined): boolean {
  return usage === undefined || input.sensitive.checksCompletion;
}

/** A whole answer's charge: the upstream's usage, or its text counted locally when it reported none. */
function wholeCharge(usage: NormalizedUsage | undefined, text: string, firstResponseMs: number, sent: SentRequest): WholeCharge {
  return {
    kind: 'charged',
    usage,
    localCompletionTokens: usage ? 0 : countTextTokens(text),
    firstResponseMs,
    upstreamModel: sent.upstreamModel,
    warnings: sent.warnings,
  };
}

/**
 * The end of every whole answer: the sensitive-word check on its text (a stop is charged, the upstream
 * did the work, and answered as an error the entry renders in the caller's format), the charge
 * settled and journaled, then the bytes sent.
 */
async function deliverWholeAnswer(input: AttemptInput, charged: WholeCharge, text: string, body: Buffer | string, contentType: string): Promise<AttemptResult> {
  let outBody = body;
  if (input.sensitive.checksCompletion && text) {
    const found = input.sensitive.find(text);
    if (found.length > 0 && input.sensitive.stops)
      return { ...charged, endReason: 'sensitive', callerError: new RelayError(400, 'sensitive_words_detected', relayMessages.sensitiveWords) };
    if (found.length > 0) outBody = input.sensitive.mask(typeof outBody === 'string' ? outBody : outBody.toString('utf8'), found);
  }
  const complete: ChargedAttempt = { ...charged, endReason: 'complete' };
  const journaled = input.settle?.(complete);
  if (journaled) await journaled;
  input.payload?.setAnswer(outBody, contentType);
  input.capture?.whole(outBody, contentType);
  input.reply.status(200).header('content-type', contentType).send(outBody);
  return complete;
}

/**
 * A complete (non-streamed) answer: converted when the provider or the caller's dialect needs it,
 * checked for sensitive words, then sent. A stop on sensitive words is charged (the upstream did the
 * work) and answered as an error, which the entry renders in the caller's own format.
 */
export async function sendWholeAnswer(
  input: AttemptInput,
  handling: PassThroughResponse | ConvertedResponse,
  response: Pick<UpstreamResponse, 'headers'>,
  raw: Buffer,
  context: ConversionContext,
  sent: SentRequest,
): Promise<AttemptResult> {
  const { endpoint } = input;
  const firstResponseMs = input.now() - input.startedAt;
  const contentType = String(response.headers['content-type'] ?? 'application/json');
  const isJson = contentType.includes('json');
  const parsedBody = isJson ? safeParseJson(raw.toString('utf8')) : undefined;
  if (parsedBody && !parsedBody.ok) return failed(new RelayError(502, 'bad_response_body', relayMessages.badResponseBody), false);
  const value = parsedBody?.ok ? parsedBody.value : undefined;
  let usage: NormalizedUsage | undefined;
  let outBody: Buffer | string = raw;
  let text: string;
  let openAIAnswer: unknown = value;
  if (handling.kind === 'convert') {
    let converted: ReturnType<ConvertedResponse['convertResponse']>;
    try {
      converted = handling.convertResponse(value, context);
    } catch (error) {
      if (!(error instanceof UnconvertibleAnswer)) throw error;
      // The upstream did the work: billed from its usage (or the prompt), answered as a 502, never as an empty success.
      return {
        kind: 'charged',
        usage: error.usage,
        localCompletionTokens: 0,
        firstResponseMs,
        upstreamModel: sent.upstreamModel,
        warnings: sent.warnings,
        endReason: 'complete',
        callerError: new RelayError(502, 'bad_response_body', relayMessages.badResponseBody),
      };
    }
    usage = converted.usage;
    openAIAnswer = converted.body;
    outBody = JSON.stringify(converted.body);
    text = textNeeded(input, usage) ? answerText(converted.body) : '';
  } else {
    usage = value === undefined ? undefined : handling.extractUsage(value);
    text = !textNeeded(input, usage) ? '' : value === undefined ? (contentType.startsWith('text/') ? raw.toString('utf8') : '') : answerText(value);
  }
  const charged = wholeCharge(usage, text, firstResponseMs, sent);
  if (endpoint.answerFormat) outBody = JSON.stringify(endpoint.answerFormat.convertAnswer(openAIAnswer, context));
  const sentType = handling.kind === 'convert' || endpoint.answerFormat ? 'application/json' : contentType;
  return deliverWholeAnswer(input, charged, text, outBody, sentType);
}
