import { api } from '../../../lib/api-client.ts';

/** GET /api/verification?email=: e-mails a code for binding. */
export function sendBindingCode(email: string, turnstile: string): Promise<unknown> {
  return api.get('/api/verification', { email, turnstile: turnstile || undefined });
}

/** GET /api/oauth/email/bind?email=&code= */
export function bindEmail(email: string, code: string): Promise<unknown> {
  return api.get('/api/oauth/email/bind', { email, code });
}

/** GET /api/oauth/wechat/bind?code= */
export function bindWechat(code: string): Promise<unknown> {
  return api.get('/api/oauth/wechat/bind', { code });
}

/** Telegram redirects the browser here after the bind widget; the server binds and sends it back to /setting. */
export const telegramBindUrl = '/api/oauth/telegram/bind';
