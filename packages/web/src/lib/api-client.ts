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
  constructor(message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

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

/** The spec's shared HTTP handling: a message per status, 401 sends the visitor to log in again. */
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

/** Sends one console call and returns `data`; throws `ApiError` with a displayable message otherwise. */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  return (await requestEnvelope<T>(method, path, options)).data;
}

/** Like `request`, for the few calls whose success `message` carries meaning (OAuth 'bind', transfer notes). */
export async function requestEnvelope<T>(method: string, path: string, options: RequestOptions = {}): Promise<Envelope<T>> {
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

  let envelope: Partial<Envelope<T>> | undefined;
  try {
    envelope = (await response.json()) as Partial<Envelope<T>>;
  } catch {
    envelope = undefined;
  }
  if (response.status === 401) {
    redirectToLogin();
    throw new ApiError(envelope?.message || i18n.t('http.expired', { ns: 'common' }), 401);
  }
  if (!response.ok) throw new ApiError(envelope?.message && response.status < 500 ? i18n.t('http.error', { ns: 'common', message: envelope.message }) : messageForStatus(response.status, envelope?.message), response.status);
  if (!envelope || envelope.success !== true) throw new ApiError(envelope?.message || i18n.t('http.error', { ns: 'common', message: `HTTP ${response.status}` }), response.status);
  return { success: true, message: envelope.message ?? '', data: envelope.data as T };
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown, query?: Query) => request<T>('POST', path, { body, query }),
  put: <T>(path: string, body?: unknown, query?: Query) => request<T>('PUT', path, { body, query }),
  delete: <T>(path: string, query?: Query) => request<T>('DELETE', path, { query }),
};
