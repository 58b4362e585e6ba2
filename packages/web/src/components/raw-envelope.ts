import { ApiError } from '../lib/api-client.ts';
import i18n from '../lib/i18n.ts';
import { clearStoredUser, readStoredUser } from '../lib/stored-user.ts';

/**
 * A few classic calls answer fields beside `data` (`time` of a channel test, `balance` of a refresh,
 * `url` of a payment form), which the shared client drops; this returns the whole envelope, with the same
 * headers and the same handling of failures and expired sessions.
 */
export async function requestEnvelope<T extends object>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T & { message: string; data?: unknown }> {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'Accept-Language': i18n.language === 'en' ? 'en' : 'zh-CN' };
  const user = readStoredUser();
  if (user) headers['New-Api-User'] = String(user.id);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(i18n.t('http.unreachable', { ns: 'common' }), 0);
  }
  const answer = (await response.json().catch(() => undefined)) as (T & { success?: boolean; message?: string; data?: unknown }) | undefined;
  if (response.status === 401) {
    clearStoredUser();
    window.location.assign('/login?expired=true');
    throw new ApiError(i18n.t('http.expired', { ns: 'common' }), 401);
  }
  if (!answer || answer.success !== true) throw new ApiError(answer?.message || i18n.t('http.error', { ns: 'common', message: `HTTP ${response.status}` }), response.status);
  return { ...answer, message: answer.message ?? '' };
}
