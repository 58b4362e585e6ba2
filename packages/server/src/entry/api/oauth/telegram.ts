import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../core/http/app-error.ts';
import { oauthMessages } from './oauth.messages.ts';

/** Widget data older than this is refused (a leaked login URL stops working). */
export const telegramMaxAgeSeconds = 24 * 3600;

/** Fields our console adds to the widget's answer; Telegram does not sign them. */
const unsignedFields = new Set(['hash', 'lang']);

/**
 * Checks Telegram Login Widget data: the hash is HMAC-SHA256 over the sorted "key=value" lines with
 * SHA-256 of the bot token as the key, and auth_date must be recent. Answers the Telegram user id.
 * @see https://core.telegram.org/widgets/login#checking-authorization
 */
export function verifyTelegramLogin(fields: Record<string, string>, botToken: string, nowSeconds: number): string {
  const hash = fields.hash ?? '';
  const checkString = Object.keys(fields)
    .filter((key) => !unsignedFields.has(key))
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const expected = createHmac('sha256', createHash('sha256').update(botToken).digest()).update(checkString).digest('hex');
  const valid = hash.length === expected.length && timingSafeEqual(Buffer.from(hash), Buffer.from(expected));
  const authDate = Number(fields.auth_date);
  const fresh = Number.isFinite(authDate) && nowSeconds - authDate <= telegramMaxAgeSeconds && authDate - nowSeconds <= 300;
  if (!botToken || !valid || !fresh || !fields.id) throw new AppError(oauthMessages.telegramInvalid);
  return fields.id;
}

/** The widget's query parameters as plain text fields. */
export function telegramFields(query: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (typeof query !== 'object' || query === null) return fields;
  for (const [key, value] of Object.entries(query)) if (typeof value === 'string') fields[key] = value;
  return fields;
}
