import type { AnswerFormat } from '../../pipeline/answer-format.ts';
import { convertMessagesAnswer } from './convert-messages-answer.ts';
import { createMessagesStreamWriter } from './messages-stream-writer.ts';

/** Answers of `/v1/messages` in Anthropic's format, whatever the channel spoke. */
export const anthropicAnswerFormat: AnswerFormat = {
  convertAnswer: convertMessagesAnswer,
  createStreamWriter: createMessagesStreamWriter,
  native: 'anthropic',
};
