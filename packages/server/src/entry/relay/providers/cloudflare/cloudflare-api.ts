import { z } from 'zod';

/**
 * Cloudflare's v4 API envelope, in which Workers AI answers its errors (and its account endpoints):
 * `{"success": false, "errors": [{"code", "message"}], "messages": [], "result": null}`.
 * @see https://developers.cloudflare.com/fundamentals/api/how-to/make-api-calls/
 */
export const cloudflareEnvelopeSchema = z.looseObject({
  success: z.boolean().nullish(),
  errors: z.array(z.looseObject({ code: z.number().nullish(), message: z.string().nullish() })).nullish(),
});

/** `GET …/ai/models/search`: the catalogue page and its position. */
export const cloudflareModelSearchSchema = z.looseObject({
  result: z.array(z.looseObject({ name: z.string() })),
  result_info: z.looseObject({ total_count: z.number().nullish() }).nullish(),
});
