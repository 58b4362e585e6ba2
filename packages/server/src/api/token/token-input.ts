import { z } from 'zod';

const optionalInteger = z.preprocess((value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : Number(value)) : value), z.number().int().optional());
/** Model limits are a comma string on the wire and a list in some clients. */
const modelList = z.union([z.string(), z.array(z.string())]).nullish().transform((value) => (Array.isArray(value) ? value.join(',') : value));
/** -1, Unix seconds, or (from older clients) a `yyyy-MM-dd HH:mm:ss` string; checked by the service. */
const expiry = z.union([z.number(), z.string()]).optional();

export const tokenFieldsSchema = z.object({
  name: z.string().nullish(),
  remain_quota: optionalInteger,
  expired_time: expiry,
  unlimited_quota: z.boolean().nullish(),
  model_limits_enabled: z.boolean().nullish(),
  model_limits: modelList,
  allow_ips: z.string().nullish(),
  group: z.string().nullish(),
});
export type TokenFields = z.output<typeof tokenFieldsSchema>;

export const createTokenSchema = tokenFieldsSchema.extend({ count: optionalInteger });
export const updateTokenSchema = tokenFieldsSchema.extend({ id: z.coerce.number().int().positive(), status: optionalInteger });
