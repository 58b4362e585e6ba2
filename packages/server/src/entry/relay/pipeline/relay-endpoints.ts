import type { CapabilityName } from '../provider.ts';
import type { AnswerFormat } from './answer-format.ts';

/** How one caller endpoint is read, routed and streamed. */
export interface RelayEndpoint {
  readonly path: string;
  readonly capability: CapabilityName;
  readonly body: 'json' | 'multipart';
  /** The model when the caller names none (new-api's defaults). */
  readonly defaultModel?: string;
  /** The SSE dialect when `stream` is set: chat-style ends with `[DONE]`, responses-style does not. */
  readonly stream: 'chat' | 'responses' | 'none';
  /** For callers of another dialect (Anthropic, Gemini): renders the OpenAI answer in theirs. */
  readonly answerFormat?: AnswerFormat;
}

export const relayEndpoints: readonly RelayEndpoint[] = [
  { path: '/v1/chat/completions', capability: 'chat', body: 'json', stream: 'chat' },
  { path: '/v1/completions', capability: 'completions', body: 'json', stream: 'chat' },
  { path: '/v1/embeddings', capability: 'embeddings', body: 'json', stream: 'none' },
  { path: '/v1/images/generations', capability: 'images', body: 'json', defaultModel: 'dall-e-2', stream: 'none' },
  { path: '/v1/images/edits', capability: 'images', body: 'multipart', defaultModel: 'dall-e-2', stream: 'none' },
  { path: '/v1/images/variations', capability: 'images', body: 'multipart', defaultModel: 'dall-e-2', stream: 'none' },
  { path: '/v1/audio/speech', capability: 'audio', body: 'json', defaultModel: 'tts-1', stream: 'none' },
  { path: '/v1/audio/transcriptions', capability: 'audio', body: 'multipart', defaultModel: 'whisper-1', stream: 'none' },
  { path: '/v1/audio/translations', capability: 'audio', body: 'multipart', defaultModel: 'whisper-1', stream: 'none' },
  { path: '/v1/moderations', capability: 'moderations', body: 'json', defaultModel: 'text-moderation-stable', stream: 'none' },
  { path: '/v1/rerank', capability: 'rerank', body: 'json', stream: 'none' },
  { path: '/v1/responses', capability: 'responses', body: 'json', stream: 'responses' },
];
