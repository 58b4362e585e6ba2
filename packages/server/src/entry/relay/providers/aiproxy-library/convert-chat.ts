import { type OpenAIChatChunk, type OpenAIChatCompletion, type OpenAIMessage, chatChunk } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext, NormalizedUsage, SseEvent, StreamConverter } from '../../provider.ts';
import { documentsMarkdown, libraryAnswerSchema, libraryStreamEventSchema, type LibraryDocument, type LibraryRequest } from './aiproxy-library-api.ts';

function textOf(content: OpenAIMessage['content']): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

/**
 * OpenAI chat request → a library question: the last message is the query (a knowledge base answers
 * one question, it keeps no conversation), the channel's knowledge-base id the `libraryId`.
 */
export function convertChatRequest(body: Record<string, unknown>, upstreamModel: string, libraryId: string, stream: boolean): LibraryRequest {
  const messages = Array.isArray(body.messages) ? (body.messages as OpenAIMessage[]) : [];
  return { model: upstreamModel, query: textOf(messages.at(-1)?.content), libraryId, stream };
}

/**
 * A library answer → an OpenAI chat completion whose content is the answer followed by the list of
 * documents. The API reports no token usage: the relay counts the question and answer locally.
 */
export function convertChatResponse(body: unknown, context: ConversionContext): { body: OpenAIChatCompletion; usage?: NormalizedUsage } {
  const parsed = libraryAnswerSchema.safeParse(body);
  const answer = parsed.success ? parsed.data : {};
  const content = (answer.answer ?? answer.data?.answer ?? '') + documentsMarkdown(answer.documents ?? answer.data?.documents);
  return {
    body: {
      id: `chatcmpl-${context.requestId}`,
      object: 'chat.completion',
      created: context.createdAt,
      model: context.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    },
  };
}

/** Streamed answer pieces → OpenAI chunks; the documents go out as a last piece of content when the answer finishes. */
export function createChatStreamConverter(context: ConversionContext): StreamConverter {
  let pendingText = '';
  let documents: LibraryDocument[] = [];
  let started = false;
  const chunk = (content: string, finish: 'stop' | null = null): OpenAIChatChunk => {
    const delta = started ? { content } : { role: 'assistant' as const, content };
    started = true;
    pendingText += content;
    return chatChunk(`chatcmpl-${context.requestId}`, context, delta, finish);
  };
  return {
    push(event: SseEvent): unknown[] {
      const json = safeParseJson(event.data);
      const parsed = json.ok ? libraryStreamEventSchema.safeParse(json.value) : undefined;
      if (!parsed?.success) return [];
      if (parsed.data.documents && parsed.data.documents.length > 0) documents = parsed.data.documents;
      const out: OpenAIChatChunk[] = [];
      if (parsed.data.content) out.push(chunk(parsed.data.content));
      if (parsed.data.finish) out.push(chunk(documentsMarkdown(documents), 'stop'));
      return out;
    },
    usage: () => undefined,
    takeText(): string {
      const text = pendingText;
      pendingText = '';
      return text;
    },
  };
}
