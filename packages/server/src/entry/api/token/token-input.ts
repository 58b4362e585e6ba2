import { idNumber, nameText, wholeNumber } from '@switchboard/contracts';
import { z } from 'zod';
import { tokenLimitFields } from './token-limit-fields.ts';
import { tokenPayloadFields } from './token-payload-field.ts';
import { tokenCacheFields } from './token-cache-fields.ts';

/** JSON numbers only, as the console sends them. */
const optionalInteger = wholeNumber.optional();
/** Model limits are a comma string on the wire and a list in some clients. */
const modelList = z
  .union([z.string(), z.array(z.string())])
  .nullish()
  .transform((value) => (Array.isArray(value) ? value.join(',') : value));
/**
 * -1 or Unix seconds (a JSON number), or text: digits or (from older clients) `yyyy-MM-dd HH:mm:ss`,
 * which the service reads and refuses with the expiry's own message.
 */
const expiry = z.union([wholeNumber, z.string()]).optional();

export const tokenFieldsSchema = z.object({
  name: nameText.nullish(),
  remain_quota: optionalInteger,
  expired_time: expiry,
  unlimited_quota: z.boolean().nullish(),
  model_limits_enabled: z.boolean().nullish(),
  model_limits: modelList,
  allow_ips: z.string().nullish(),
  group: nameText.nullish(),
  ...tokenLimitFields,
  ...tokenPayloadFields,
  ...tokenCacheFields,
});
export type TokenFields = z.output<typeof tokenFieldsSchema>;

export const createTokenSchema = tokenFieldsSchema.extend({ count: optionalInteger });
export const updateTokenSchema = tokenFieldsSchema.extend({ id: idNumber, status: optionalInteger });
