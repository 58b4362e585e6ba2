import type { ConversionContext } from '../provider.ts';
import { relayMessages } from '../relay.messages.ts';
import { sseFrame, type StreamEventTranslator } from './stream-events.ts';
import { type OpenAIErrorBody, openAIErrorBody } from '../../../core/http/openai-error-body.ts';

export type StreamEndReason = 'done' | 'upstream_error' | 'timeout' | 'client_gone' | 'sensitive';

/** What the ending depends on besides the translator's state (see StreamRelayOptions). */
export interface StreamEndingOptions {
  readonly dialect: 'chat' | 'responses';
  readonly callerWantsUsage: boolean;
  readonly context: ConversionContext;
}

/** The event that tells a streaming caller the upstream broke off (OpenAI's in-stream error shape). */
function interruptionError(): OpenAIErrorBody {
  return openAIErrorBody({ message: relayMessages.streamInterrupted.en, type: 'upstream_error', code: 'stream_interrupted' });
}

function sensitiveWordsError(): OpenAIErrorBody {
  return openAIErrorBody({ message: relayMessages.sensitiveWords.en, type: 'new_api_error', code: 'sensitive_words_detected' });
}

/** The usage chunk a caller who asked for usage gets when the upstream's own did not reach them. */
function usageChunk(translator: StreamEventTranslator, context: ConversionContext): string {
  const reported = translator.usageOrEstimate(translator.usage ? 0 : translator.localCompletionTokens());
  return sseFrame(
    JSON.stringify({
      id: `chatcmpl-${context.requestId}`,
      object: 'chat.completion.chunk',
      created: context.createdAt,
      model: context.model,
      choices: [],
      usage: {
        prompt_tokens: reported.promptTokens,
        completion_tokens: reported.completionTokens,
        total_tokens: reported.promptTokens + reported.completionTokens,
      },
    }),
  );
}

/**
 * The caller's last bytes. A cut answer must not look complete: the caller gets an error event
 * first, so SDKs raise instead of returning half an answer as if it were whole. OpenAI-format
 * callers still get the [DONE] they wait for (after the usage chunk they asked for); other dialects
 * end as their writer says, native streams with the vendor's error event and their framing's end.
 */
export function closingText(translator: StreamEventTranslator, endReason: StreamEndReason, options: StreamEndingOptions): string {
  const { writer } = translator;
  const interrupted = endReason === 'upstream_error' || endReason === 'timeout';
  const error = endReason === 'sensitive' ? sensitiveWordsError() : interrupted ? interruptionError() : undefined;
  if (translator.native) {
    const failure = error ? translator.native.streamError(endReason === 'sensitive' ? 'sensitive' : 'interrupted', error.error.message) : undefined;
    // Google's array stays valid JSON: the error object is its last element, then `]`.
    if (translator.arrayFraming) return translator.arrayFraming.close(failure?.data);
    return failure ? `${failure.event ? `event: ${failure.event}\n` : ''}data: ${failure.data}\n\n` : '';
  }
  if (error && writer) return writer.push(error);
  if (error) return sseFrame(JSON.stringify(error)) + (options.dialect === 'chat' ? 'data: [DONE]\n\n' : '');
  if (writer) return writer.end(translator.usageOrEstimate(translator.usage ? 0 : translator.localCompletionTokens()));
  if (options.dialect !== 'chat') return '';
  const usage = options.callerWantsUsage && !translator.usageForwarded ? usageChunk(translator, options.context) : '';
  return `${usage}data: [DONE]\n\n`;
}
