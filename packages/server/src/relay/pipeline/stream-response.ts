import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { safeParseJson } from '../../platform/safe-json.ts';
import { relayMessages } from '../relay.messages.ts';
import type { ConvertedResponse, ConversionContext, NormalizedUsage, PassThroughResponse, StreamConverter } from '../provider.ts';
import type { AnswerFormat, AnswerStreamWriter } from './answer-format.ts';
import { StreamSensitiveCheck, type SensitiveWords } from './sensitive-words.ts';
import { StreamTextCounter } from './token-estimate.ts';

export type StreamEndReason = 'done' | 'upstream_error' | 'timeout' | 'client_gone' | 'sensitive';

export interface StreamOutcome {
  /** Usage the upstream reported, if it did. */
  readonly usage: NormalizedUsage | undefined;
  /** Tokens of the text that reached us, counted locally (used when usage is missing). */
  readonly localCompletionTokens: number;
  readonly endReason: StreamEndReason;
}

export interface StreamRelayOptions {
  readonly upstream: Readable;
  /** Aborts the upstream request (caller gone). */
  readonly abortUpstream: () => void;
  readonly response: ServerResponse;
  readonly handling: PassThroughResponse | ConvertedResponse;
  readonly dialect: 'chat' | 'responses';
  /** The caller asked for usage in the stream; otherwise a usage-only chunk we forced is hidden. */
  readonly callerWantsUsage: boolean;
  /** For a synthetic usage chunk when the caller asked for usage and the upstream sent none. */
  readonly promptTokensEstimate: number;
  readonly context: ConversionContext;
  readonly headers: Record<string, string>;
  /** The first upstream chunk, already read (it decided that this attempt succeeded). */
  readonly firstChunk: Buffer;
  /** A caller of another dialect: every OpenAI chunk goes through its writer instead of out as is. */
  readonly answerFormat?: AnswerFormat;
  /** Set when completions are checked for sensitive words (CheckSensitiveOnCompletionEnabled). */
  readonly sensitive?: SensitiveWords;
  /**
   * Receives the outcome before the answer's last bytes are written (the caller cannot have the whole
   * answer before its charge is recorded), or, when the caller left, before the promise resolves.
   */
  readonly beforeEnd?: (outcome: StreamOutcome) => void;
}

/** A frame that may hold usage (`"usage": {`); OpenAI's other frames say `"usage": null` or nothing. */
const carriesUsage = /"usage"\s*:\s*\{/;
/** Frame data held unparsed per stream before it is counted anyway (bounds memory on long answers). */
const maxUncountedLength = 32_768;

/** The event that tells a streaming caller the upstream broke off (OpenAI's in-stream error shape). */
function interruptionError(): { error: { message: string; type: string; code: string } } {
  return { error: { message: relayMessages.streamInterrupted.en, type: 'upstream_error', code: 'stream_interrupted' } };
}

function sensitiveWordsError(): { error: { message: string; type: string; code: string } } {
  return { error: { message: relayMessages.sensitiveWords.en, type: 'new_api_error', code: 'sensitive_words_detected' } };
}

/**
 * Why a body stopped early: its idle time ran out (STREAMING_TIMEOUT: undici's body timeout, or a
 * TimeoutError from transports that watch it themselves, such as Bedrock's), or it failed.
 */
function failureReason(error: (Error & { code?: string }) | null | undefined): StreamEndReason {
  return error?.code === 'UND_ERR_BODY_TIMEOUT' || error?.name === 'TimeoutError' ? 'timeout' : 'upstream_error';
}

/** Reads the first body chunk, so a failure before any byte can still go to another channel. */
export function readFirstChunk(body: Readable): Promise<{ chunk: Buffer } | { end: true } | { error: Error }> {
  return new Promise((resolve) => {
    const cleanup = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      cleanup();
      body.pause();
      resolve({ chunk });
    };
    const onEnd = () => {
      cleanup();
      resolve({ end: true });
    };
    const onError = (error: Error) => {
      cleanup();
      resolve({ error });
    };
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
  });
}

/**
 * Relays one server-sent-event stream to the caller, chunk by chunk: each upstream chunk becomes one
 * write, with no buffering or delay beyond completing a split event. Pass-through events are
 * forwarded as the upstream wrote them; only frames carrying usage are parsed (the others are
 * counted locally only when no usage arrives). `[DONE]` is always sent to chat-format callers,
 * also after an error event. Back-pressure pauses the upstream; a caller who leaves aborts it, and
 * what arrived until then is what gets billed.
 */
export function relayStream(options: StreamRelayOptions): Promise<StreamOutcome> {
  const { upstream, response, handling } = options;
  const decoder = new StringDecoder('utf8');
  const counter = new StreamTextCounter();
  const converter: StreamConverter | undefined = handling.kind === 'convert' ? handling.createStreamConverter(options.context) : undefined;
  let buffer = '';
  let usage: NormalizedUsage | undefined;
  let usageForwarded = false;
  let finished = false;
  // Writers that announce usage up front (Anthropic's message_start) get the upstream's count once
  // a frame reported it, else the prompt estimate: never a zero that clients would take as real.
  const usageSoFar = (): NormalizedUsage => usage ?? { promptTokens: options.promptTokensEstimate, completionTokens: 0 };
  const writer: AnswerStreamWriter | undefined = options.answerFormat?.createStreamWriter(options.context, { usageSoFar });
  const sensitiveCheck = options.sensitive ? new StreamSensitiveCheck(options.sensitive) : undefined;
  /** The answer text of the event being processed (for the sensitive-word check). */
  let eventText = '';
  let stoppedBySensitiveWord = false;
  const passThrough = handling.kind === 'pass-through' ? handling : undefined;
  // Forwarded as they are, frames need no parse unless they carry usage: their text matters only
  // when the upstream reports no usage. They wait here, bounded, and are counted only then.
  const deferCounting = passThrough !== undefined && !writer && !sensitiveCheck;
  let uncounted: string[] = [];
  let uncountedLength = 0;
  const countDeferred = () => {
    for (const data of uncounted) {
      const parsed = safeParseJson(data);
      if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null) counter.add(passThrough?.extractStreamText(parsed.value) ?? '');
    }
    uncounted = [];
    uncountedLength = 0;
  };
  const localCompletionTokens = (): number => {
    countDeferred();
    return counter.total();
  };

  const frame = (data: string) => `data: ${data}\n\n`;

  const handleUsageChunk = (value: Record<string, unknown>, hasChoices: boolean): string | undefined => {
    if (options.callerWantsUsage) {
      usageForwarded = true;
      return undefined;
    }
    if (!hasChoices) return '';
    const { usage: _hidden, ...rest } = value;
    return frame(JSON.stringify(rest));
  };

  /** One complete event block in, the text to write out. */
  const processEvent = (block: string): string => {
    let data = '';
    let event = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('data:')) data += (data ? '\n' : '') + (line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
      else if (line.startsWith('event:')) event = line.slice(6).trim();
    }
    if (!data) return converter ? '' : `${block}\n\n`;
    if (data === '[DONE]') return '';
    if (converter) {
      let out = '';
      const chunks = converter.push({ event, data });
      // Before the chunks go out: a writer may announce the usage this very event carried.
      usage = converter.usage() ?? usage;
      for (const chunk of chunks) {
        if (writer) {
          out += writer.push(chunk);
          continue;
        }
        const object = chunk as Record<string, unknown>;
        const choices = object?.choices;
        const replaced = object?.usage ? handleUsageChunk(object, Array.isArray(choices) && choices.length > 0) : undefined;
        out += replaced ?? frame(JSON.stringify(chunk));
      }
      eventText = converter.takeText();
      counter.add(eventText);
      return out;
    }
    if (deferCounting && !carriesUsage.test(data)) {
      if (usage === undefined) {
        uncounted.push(data);
        uncountedLength += data.length;
        if (uncountedLength >= maxUncountedLength) countDeferred();
      }
      return `${block}\n\n`;
    }
    const parsed = safeParseJson(data);
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return writer ? '' : `${block}\n\n`;
    const value = parsed.value as Record<string, unknown>;
    eventText = handling.kind === 'pass-through' ? handling.extractStreamText(value) : '';
    counter.add(eventText);
    const found = handling.kind === 'pass-through' ? handling.extractUsage(value) : undefined;
    if (writer) {
      if (found && (found.promptTokens > 0 || found.completionTokens > 0)) usage = found;
      return writer.push(value);
    }
    if (found && (found.promptTokens > 0 || found.completionTokens > 0)) {
      usage = found;
      uncounted = [];
      uncountedLength = 0;
      if (options.dialect === 'chat') {
        const choices = value.choices;
        const replaced = handleUsageChunk(value, Array.isArray(choices) && choices.length > 0);
        if (replaced !== undefined) return replaced;
      }
    }
    return `${block}\n\n`;
  };

  /**
   * One event, checked for sensitive words when that is on: a hit stops the answer there (the event
   * is not sent) or, when not stopping, is masked in the event. A word split across events is found
   * by the check's carried-over tail; masking covers the part inside this event.
   */
  const processCheckedEvent = (block: string): string => {
    eventText = '';
    const out = processEvent(block);
    if (!sensitiveCheck || !eventText) return out;
    const found = sensitiveCheck.inspect(eventText);
    if (found.length === 0) return out;
    if (options.sensitive?.stops) {
      stoppedBySensitiveWord = true;
      return '';
    }
    return options.sensitive?.mask(out, found) ?? out;
  };

  /** A CR that ended the previous chunk: maybe half of a CRLF whose LF opens the next one. */
  let carriedReturn = false;
  const processText = (text: string, last = false): string => {
    let lines = carriedReturn ? `\r${text}` : text;
    carriedReturn = false;
    if (lines.includes('\r')) {
      // Normalised only once its LF is seen, so a CRLF split across chunks stays one line end.
      if (!last && lines.endsWith('\r')) {
        carriedReturn = true;
        lines = lines.slice(0, -1);
      }
      lines = lines.replace(/\r\n?/g, '\n');
    }
    buffer += lines;
    let out = '';
    for (let end = buffer.indexOf('\n\n'); end >= 0 && !stoppedBySensitiveWord; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block) out += processCheckedEvent(block);
    }
    return out;
  };

  return new Promise<StreamOutcome>((resolve) => {
    const finish = (reported: StreamEndReason) => {
      if (finished) return;
      finished = true;
      upstream.off('data', onData);
      let endReason = reported;
      let outcome: StreamOutcome | undefined;
      // With usage reported, the local count is not needed: no tokenizing at the end of every stream.
      const reportOutcome = (): StreamOutcome => {
        outcome = { usage, localCompletionTokens: usage ? 0 : localCompletionTokens(), endReason };
        options.beforeEnd?.(outcome);
        return outcome;
      };
      if (endReason !== 'client_gone' && !response.destroyed) {
        let tail = endReason === 'sensitive' ? '' : processText(decoder.end(), true);
        if (buffer.trim() && !stoppedBySensitiveWord) tail += processCheckedEvent(buffer.trim());
        buffer = '';
        if (stoppedBySensitiveWord) endReason = 'sensitive';
        const interrupted = endReason === 'upstream_error' || endReason === 'timeout';
        // A cut answer must not look complete: the caller gets an error event first, so SDKs raise
        // instead of returning half an answer as if it were whole. OpenAI-format callers still get
        // the [DONE] they wait for; other dialects end as their writer says.
        const error = endReason === 'sensitive' ? sensitiveWordsError() : interrupted ? interruptionError() : undefined;
        if (error && writer) tail += writer.push(error);
        else if (error) tail += frame(JSON.stringify(error)) + (options.dialect === 'chat' ? 'data: [DONE]\n\n' : '');
        else if (writer) tail += writer.end(usage ?? { promptTokens: options.promptTokensEstimate, completionTokens: localCompletionTokens() });
        else if (options.dialect === 'chat') {
          if (options.callerWantsUsage && !usageForwarded) {
            const reported = usage ?? { promptTokens: options.promptTokensEstimate, completionTokens: localCompletionTokens() };
            tail += frame(
              JSON.stringify({
                id: `chatcmpl-${options.context.requestId}`,
                object: 'chat.completion.chunk',
                created: options.context.createdAt,
                model: options.context.model,
                choices: [],
                usage: {
                  prompt_tokens: reported.promptTokens,
                  completion_tokens: reported.completionTokens,
                  total_tokens: reported.promptTokens + reported.completionTokens,
                },
              }),
            );
          }
          tail += 'data: [DONE]\n\n';
        }
        reportOutcome();
        response.end(tail);
      }
      if (endReason !== 'done') options.abortUpstream();
      resolve(outcome ?? reportOutcome());
    };
    let awaitingDrain = false;
    const onDrain = () => {
      awaitingDrain = false;
      upstream.resume();
    };
    const onData = (chunk: Buffer) => {
      const out = processText(decoder.write(chunk));
      if (stoppedBySensitiveWord) {
        if (out) response.write(out);
        return finish('sensitive');
      }
      if (!out || response.write(out)) return;
      // A destroyed response never drains: waiting for it would hold the upstream and the quota forever.
      if (response.destroyed) return finish('client_gone');
      upstream.pause();
      awaitingDrain = true;
      response.once('drain', onDrain);
    };
    // Closed before we started ('close' has fired and will not fire again): nothing is written, but
    // the first chunk is what the upstream produced for the caller, so it is counted.
    if (response.destroyed) {
      processText(decoder.write(options.firstChunk));
      finish('client_gone');
      return;
    }
    response.writeHead(200, {
      'content-type': options.answerFormat?.streamContentType ?? 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...options.headers,
    });
    response.flushHeaders();
    response.once('close', () => {
      if (!response.writableFinished) finish('client_gone');
    });
    upstream.on('data', onData);
    upstream.once('end', () => finish('done'));
    upstream.once('error', (error: Error) => finish(failureReason(error)));
    // Every way a body stops ends in 'close'; one that closes before its end was cut.
    upstream.once('close', () => finish(upstream.readableEnded ? 'done' : failureReason(upstream.errored)));
    onData(options.firstChunk);
    if (finished) return;
    // When the first chunk was the whole body, its end (or error) fired while readFirstChunk had
    // already let go and nobody listened: the body's state says so, and no event will come again.
    if (upstream.readableEnded) return finish('done');
    if (upstream.destroyed) return finish(failureReason(upstream.errored));
    if (!awaitingDrain) upstream.resume();
  });
}
