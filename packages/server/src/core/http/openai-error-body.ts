/**
 * OpenAI's error object, the one failure shape relay callers parse: the body of a refused or failed
 * request, and the last chunk of a stream that broke off. Optional fields are left out, not set to
 * undefined, so each caller's wire bytes stay what they were (some send `param`, some only `code`).
 */
export interface OpenAIErrorFields {
  readonly message: string;
  readonly type: string;
  readonly param?: string;
  readonly code?: string | null;
}

export interface OpenAIErrorBody {
  readonly error: OpenAIErrorFields;
}

export function openAIErrorBody({ message, type, param, code }: OpenAIErrorFields): OpenAIErrorBody {
  return { error: { message, type, ...(param === undefined ? {} : { param }), ...(code === undefined ? {} : { code }) } };
}
