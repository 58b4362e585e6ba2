import type { AnswerFormat } from '../../pipeline/answer-format.ts';
import { convertGenerateAnswer } from './convert-generate-answer.ts';
import { createGenerateStreamWriter } from './generate-stream-writer.ts';

/** Answers of `/v1beta/models/{model}:generateContent` and `:streamGenerateContent?alt=sse`. */
export const geminiAnswerFormat: AnswerFormat = {
  convertAnswer: convertGenerateAnswer,
  createStreamWriter: (context) => createGenerateStreamWriter(context, 'sse'),
  native: 'gemini',
};

/** `:streamGenerateContent` without `alt=sse`: Google's default, one JSON array written as it grows. */
export const geminiArrayAnswerFormat: AnswerFormat = {
  convertAnswer: convertGenerateAnswer,
  createStreamWriter: (context) => createGenerateStreamWriter(context, 'array'),
  streamContentType: 'application/json; charset=utf-8',
};
