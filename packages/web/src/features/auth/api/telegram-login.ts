import { api } from '../../../lib/api-client.ts';
import type { LoginAnswer } from '../lib/login-answer.ts';

/** What the Telegram login widget hands to its callback. @see https://core.telegram.org/widgets/login#receiving-authorization-data */
export interface TelegramAuthData {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  photo_url?: string;
  auth_date: number;
  hash: string;
}

/** GET /api/oauth/telegram/login with the widget's fields (the server checks the hash). */
export function telegramLogin(data: TelegramAuthData, language: string): Promise<LoginAnswer> {
  return api.get<LoginAnswer>('/api/oauth/telegram/login', { ...data, lang: language });
}
