import { z } from 'zod';

/**
 * The Gemini API wire format (generateContent, streamGenerateContent, embedContent), as far as the
 * gateway reads or writes it. Minimal and tolerant: unknown fields are kept, nulls accepted.
 * @see https://ai.google.dev/api/generate-content
 * @see https://ai.google.dev/api/embeddings
 */

export const geminiPartSchema = z.looseObject({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  inlineData: z.looseObject({ mimeType: z.string(), data: z.string() }).nullish(),
  fileData: z.looseObject({ mimeType: z.string().nullish(), fileUri: z.string() }).nullish(),
  functionCall: z.looseObject({ id: z.string().nullish(), name: z.string(), args: z.record(z.string(), z.unknown()).nullish() }).nullish(),
  functionResponse: z.looseObject({ id: z.string().nullish(), name: z.string(), response: z.record(z.string(), z.unknown()).nullish() }).nullish(),
});
export type GeminiPart = z.infer<typeof geminiPartSchema>;

export const geminiContentSchema = z.looseObject({ role: z.string().nullish(), parts: z.array(geminiPartSchema).nullish() });
export type GeminiContent = z.infer<typeof geminiContentSchema>;

export const geminiFunctionDeclarationSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  parametersJsonSchema: z.record(z.string(), z.unknown()).nullish(),
});

/** A generateContent request, as a Gemini-format caller sends it to `/v1beta/models/{model}:…`. */
export const geminiRequestSchema = z.looseObject({
  contents: z.array(geminiContentSchema),
  systemInstruction: geminiContentSchema.nullish(),
  tools: z.array(z.looseObject({ functionDeclarations: z.array(geminiFunctionDeclarationSchema).nullish() })).nullish(),
  toolConfig: z
    .looseObject({ functionCallingConfig: z.looseObject({ mode: z.string().nullish(), allowedFunctionNames: z.array(z.string()).nullish() }).nullish() })
    .nullish(),
  safetySettings: z.array(z.looseObject({ category: z.string(), threshold: z.string() })).nullish(),
  generationConfig: z
    .looseObject({
      temperature: z.number().nullish(),
      topP: z.number().nullish(),
      topK: z.number().nullish(),
      candidateCount: z.number().nullish(),
      maxOutputTokens: z.number().nullish(),
      stopSequences: z.array(z.string()).nullish(),
      presencePenalty: z.number().nullish(),
      frequencyPenalty: z.number().nullish(),
      seed: z.number().nullish(),
      responseMimeType: z.string().nullish(),
      responseSchema: z.unknown().optional(),
      thinkingConfig: z.looseObject({ thinkingBudget: z.number().nullish(), includeThoughts: z.boolean().nullish() }).nullish(),
    })
    .nullish(),
});
export type GeminiRequest = z.infer<typeof geminiRequestSchema>;

export const geminiUsageSchema = z.looseObject({
  promptTokenCount: z.number().nullish(),
  candidatesTokenCount: z.number().nullish(),
  totalTokenCount: z.number().nullish(),
  cachedContentTokenCount: z.number().nullish(),
  thoughtsTokenCount: z.number().nullish(),
  toolUsePromptTokenCount: z.number().nullish(),
});
export type GeminiUsage = z.infer<typeof geminiUsageSchema>;

/**
 * An answer's part: one whose fields have shapes this schema does not know (a part kind Google adds
 * tomorrow) is kept as an empty part, skipped by the converters, instead of failing the whole answer.
 * Server-side parts (`executableCode`, `codeExecutionResult`) are kept but never become tool calls.
 */
const geminiAnswerPartSchema = geminiPartSchema.catch((): GeminiPart => ({}));
const geminiAnswerContentSchema = z.looseObject({ role: z.string().nullish(), parts: z.array(geminiAnswerPartSchema).nullish() });

export const geminiCandidateSchema = z.looseObject({
  content: geminiAnswerContentSchema.nullish(),
  finishReason: z.string().nullish(),
  index: z.number().nullish(),
});

/** A generateContent answer, and equally one event of streamGenerateContent. */
export const geminiResponseSchema = z.looseObject({
  candidates: z.array(geminiCandidateSchema).nullish(),
  promptFeedback: z.looseObject({ blockReason: z.string().nullish() }).nullish(),
  usageMetadata: geminiUsageSchema.nullish(),
  modelVersion: z.string().nullish(),
  responseId: z.string().nullish(),
});
export type GeminiResponse = z.infer<typeof geminiResponseSchema>;

/** `{"error":{"code","message","status","details"}}`, Google's error body. */
export const geminiErrorSchema = z.looseObject({
  error: z
    .looseObject({
      code: z.number().nullish(),
      message: z.string().nullish(),
      status: z.string().nullish(),
      details: z.array(z.looseObject({ reason: z.string().nullish() })).nullish(),
    })
    .nullish(),
});

export const geminiEmbeddingsResponseSchema = z.looseObject({
  embeddings: z.array(z.looseObject({ values: z.array(z.number()) })).nullish(),
  embedding: z.looseObject({ values: z.array(z.number()) }).nullish(),
});

/** The API version in the URL when the channel does not name one. */
export const defaultGeminiVersion = 'v1beta';
