import type { AnswerFormat } from '../../pipeline/answer-format.ts';
import { convertGenerateAnswer } from './convert-generate-answer.ts';
import { createGenerateStreamWriter } from './generate-stream-writer.ts';

/** Answers of `/v1beta/models/{model}:generateContent` and `:streamGenerateContent?alt=sse`. */
export const geminiAnswerFormat: AnswerFormat = {
  convertAnswer: convertGenerateAnswer,
  createStreamWriter: (context) => createGenerateStreamWriter(context, 'sse'),
  native: 'gemini',
};

/**
 * `:streamGenerateContent` without `alt=sse`: Google's default, one JSON array written as it grows.
 * On a Gemini channel the upstream is still asked with `alt=sse` (the relay's splitter finds event
 * boundaries; an array would need a JSON scanner in the stream loop), and each event's JSON goes out
 * verbatim as one element (`nativeFraming`); elsewhere the converted writer renders the array.
 */
export const geminiArrayAnswerFormat: AnswerFormat = {
  convertAnswer: convertGenerateAnswer,
  createStreamWriter: (context) => createGenerateStreamWriter(context, 'array'),
  streamContentType: 'application/json; charset=utf-8',
  native: 'gemini',
  nativeFraming: 'json-array',
};
