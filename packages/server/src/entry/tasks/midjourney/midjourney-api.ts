import { z } from 'zod';

/**
 * The parts of midjourney-proxy's answers the relay reads: a submit's `{code, description, result,
 * properties}` and a task of `list-by-condition`. Tolerant: unknown fields pass through untouched.
 * @see https://github.com/novicezk/midjourney-proxy/blob/main/docs/api.md
 */
export const submitAnswerSchema = z
  .object({
    code: z.number(),
    description: z.string().nullish(),
    result: z.unknown().optional(),
    properties: z.unknown().optional(),
  })
  .passthrough();

export type SubmitAnswer = z.infer<typeof submitAnswerSchema>;

/** Submit codes that mean the upstream took the task (new-api charges exactly these). */
export const acceptedCodes: ReadonlySet<number> = new Set([1, 21, 22]);
/** The proxy has no Discord account left: the channel is dead until an operator fixes it. */
export const noAccountCode = 3;
/** midjourney-proxy's codes for a refused request and for an unexpected failure. */
export const mjErrorCode = { request: 4, unknown: 5 } as const;

const timeSchema = z.coerce.number().nullish();

export const upstreamTaskSchema = z
  .object({
    id: z.string(),
    action: z.string().nullish(),
    status: z.string().nullish(),
    progress: z.string().nullish(),
    prompt: z.string().nullish(),
    promptEn: z.string().nullish(),
    description: z.string().nullish(),
    state: z.string().nullish(),
    submitTime: timeSchema,
    startTime: timeSchema,
    finishTime: timeSchema,
    imageUrl: z.string().nullish(),
    videoUrl: z.string().nullish(),
    videoUrls: z.unknown().optional(),
    failReason: z.string().nullish(),
    buttons: z.unknown().optional(),
    properties: z.unknown().optional(),
  })
  .passthrough();

export type UpstreamTask = z.infer<typeof upstreamTaskSchema>;

export const upstreamTaskListSchema = z.array(z.unknown());
