/** What a Suno route answers: the Suno API's own `{code, message, data}`, never an OpenAI error. */
export interface SunoAnswer {
  readonly status: number;
  readonly body: unknown;
}

export function sunoSuccess(data: unknown): SunoAnswer {
  return { status: 200, body: { code: 'success', message: '', data } };
}

export function sunoError(status: number, code: string, message: string = code): SunoAnswer {
  return { status, body: { code, message, data: null } };
}
