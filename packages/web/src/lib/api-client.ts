import i18n from './i18n.ts';
import { clearStoredUser, readStoredUser } from './stored-user.ts';

/** The console API's envelope (`{success, message, data}`), unwrapped by `api`. */
export interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

/** A failed call: `message` is already in the user's language and suitable for a toast. */
export class ApiError extends Error {
  readonly status: number;
  /** The envelope's `code` on the few failures the console acts on (`turnstile_required`); '' otherwise. */
  readonly code: string;
  constructor(message: string, status: number, code = '') {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
}

function withQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null) params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

/**
 * The message for a non-OK answer, exactly as the spec's shared HTTP handling says: fixed texts for
 * 429, 500 and 405 whatever the body carries (a JSON message must not override them), and
 * 'Error: {message}' for any other status, with the server's message when the body has one.
 */
function messageForStatus(status: number, serverMessage: string | undefined): string {
  if (status === 429) return i18n.t('http.tooManyRequests', { ns: 'common' });
  if (status === 500) return i18n.t('http.serverError', { ns: 'common' });
  if (status === 405) return i18n.t('http.demoOnly', { ns: 'common' });
  return i18n.t('http.error', { ns: 'common', message: serverMessage || `HTTP ${status}` });
}

function redirectToLogin(): void {
  clearStoredUser();
  if (!window.location.pathname.startsWith('/login')) window.location.assign('/login?expired=true');
}

/** A JSON answer as it came: the envelope's fields plus whatever a classic call puts beside them. */
type AnswerBody = Partial<Envelope<unknown>> & Record<string, unknown>;

async function readJson(response: Response): Promise<AnswerBody | undefined> {
  try {
    const parsed = (await response.json()) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as AnswerBody) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends one console call with the shared headers and failure handling and returns the whole JSON
 * body of a successful envelope; throws `ApiError` with a displayable message otherwise.
 */
async function send(method: string, path: string, options: RequestOptions): Promise<AnswerBody> {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'Accept-Language': i18n.language === 'en' ? 'en' : 'zh-CN' };
  const user = readStoredUser();
  if (user) headers['New-Api-User'] = String(user.id);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), { method, headers, body, credentials: 'same-origin', signal: options.signal });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(i18n.t('http.unreachable', { ns: 'common' }), 0);
  }

  const answer = await readJson(response);
  const serverMessage = typeof answer?.message === 'string' ? answer.message : undefined;
  if (response.status === 401) {
    redirectToLogin();
    throw new ApiError(serverMessage || i18n.t('http.expired', { ns: 'common' }), 401);
  }
  // The code travels on refusals with a status too (403 `verification_required`, `second_factor_required`).
  const code = typeof answer?.code === 'string' ? answer.code : '';
  if (!response.ok) throw new ApiError(messageForStatus(response.status, serverMessage), response.status, code);
  if (!answer || answer.success !== true) {
    throw new ApiError(serverMessage || i18n.t('http.error', { ns: 'common', message: `HTTP ${response.status}` }), response.status, code);
  }
  return answer;
}

/** Sends one console call and returns `data`; throws `ApiError` with a displayable message otherwise. */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  return (await requestEnvelope<T>(method, path, options)).data;
}

/** Like `request`, for the few calls whose success `message` carries meaning (OAuth 'bind', transfer notes). */
export async function requestEnvelope<T>(method: string, path: string, options: RequestOptions = {}): Promise<Envelope<T>> {
  const answer = await send(method, path, options);
  return { success: true, message: answer.message ?? '', data: answer.data as T };
}

/**
 * For the classic calls that answer fields beside `data` (`time` of a channel test, `balance` of a
 * refresh, `url` of a payment form, `group_ratio` of the price list): the whole body, typed by `T`.
 */
export async function requestWithExtras<T extends object>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Partial<T> & { message: string; data?: unknown }> {
  const answer = await send(method, path, options);
  return { ...(answer as Partial<T>), message: answer.message ?? '', data: answer.data };
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown, query?: Query) => request<T>('POST', path, { body, query }),
  put: <T>(path: string, body?: unknown, query?: Query) => request<T>('PUT', path, { body, query }),
  delete: <T>(path: string, query?: Query) => request<T>('DELETE', path, { query }),
};
