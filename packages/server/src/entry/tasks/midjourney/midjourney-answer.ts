import { mjErrorCode } from './midjourney-api.ts';

/** What a Midjourney route answers: midjourney-proxy's own JSON, never an OpenAI error. */
export interface MjAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** A refusal in midjourney-proxy's shape: `{code, description, result, properties}`. */
export function mjError(status: number, description: string, code: number = mjErrorCode.request): MjAnswer {
  return { status, body: { code, description, result: null, properties: null } };
}
