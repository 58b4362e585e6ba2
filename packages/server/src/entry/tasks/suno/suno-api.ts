import { z } from 'zod';

/**
 * The Suno API that new-api relays to (`/suno/submit/{music,lyrics}`, `/suno/fetch`): every answer is
 * `{code, message, data}` with `code: "success"` when it worked. Tolerant schemas of what we read.
 * @see https://github.com/Suno-API/Suno-API
 */
export const sunoEnvelopeSchema = z.object({ code: z.string(), message: z.string().nullish(), data: z.unknown().optional() }).passthrough();

export const sunoTaskSchema = z
  .object({
    task_id: z.string(),
    action: z.string().nullish(),
    status: z.string().nullish(),
    fail_reason: z.string().nullish(),
    submit_time: z.coerce.number().nullish(),
    start_time: z.coerce.number().nullish(),
    finish_time: z.coerce.number().nullish(),
    progress: z.string().nullish(),
    data: z.unknown().optional(),
  })
  .passthrough();

export type SunoTask = z.infer<typeof sunoTaskSchema>;

export const sunoActions = { music: 'MUSIC', lyrics: 'LYRICS' } as const;

/** The model a Suno action is priced and routed by. */
export function sunoModel(action: string): string {
  return `suno_${action.toLowerCase()}`;
}
