import { z } from 'zod';

/**
 * AI Proxy's knowledge-base API (`POST /api/library/ask`), as one-api and new-api relay it. Minimal,
 * tolerant schemas: the answer is read at the top level (`answer`, `documents`) or under `data`.
 * @see https://docs.aiproxy.io/dev/library (使用已经定制好的知识库进行对话问答)
 */

export const libraryDocumentSchema = z.looseObject({ title: z.string().nullish(), url: z.string().nullish() });
export type LibraryDocument = z.infer<typeof libraryDocumentSchema>;

const answerFields = { answer: z.string().nullish(), documents: z.array(libraryDocumentSchema).nullish() };

export const libraryAnswerSchema = z.looseObject({
  success: z.boolean().nullish(),
  errCode: z.number().nullish(),
  message: z.string().nullish(),
  ...answerFields,
  data: z.looseObject(answerFields).nullish(),
});

/** One streamed event: a piece of the answer; the documents arrive with the last ones. */
export const libraryStreamEventSchema = z.looseObject({
  content: z.string().nullish(),
  finish: z.boolean().nullish(),
  documents: z.array(libraryDocumentSchema).nullish(),
});

export interface LibraryRequest {
  model: string;
  query: string;
  libraryId: string;
  stream: boolean;
}

/** The documents an answer rests on, appended as a Markdown list the way one-api and new-api append them. */
export function documentsMarkdown(documents: readonly LibraryDocument[] | null | undefined): string {
  if (!documents || documents.length === 0) return '';
  return `\n\n参考文档：\n${documents.map((document, index) => `${index + 1}. [${document.title ?? ''}](${document.url ?? ''})\n`).join('')}`;
}
