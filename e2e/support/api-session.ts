/**
 * A logged-in API client for arranging test data (options, users) through the real console API, the
 * way the console itself would: session cookie plus the New-Api-User header.
 */
export interface ApiAnswer<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

export interface ApiSession {
  userId: number;
  get<T = unknown>(path: string): Promise<ApiAnswer<T>>;
  post<T = unknown>(path: string, body?: unknown): Promise<ApiAnswer<T>>;
  put<T = unknown>(path: string, body?: unknown): Promise<ApiAnswer<T>>;
  delete<T = unknown>(path: string): Promise<ApiAnswer<T>>;
  /** Sets console options one by one (PUT /api/option/ takes one key per call). */
  setOptions(options: Record<string, string>): Promise<void>;
  /** One console option's stored value, as GET /api/option/ lists it (undefined when not listed). */
  option(key: string): Promise<string | undefined>;
}

/** `turnstile` is the token to send when the Turnstile check is on (the fake siteverify accepts "pass"). */
export async function loginApi(baseUrl: string, username: string, password: string, turnstile = ''): Promise<ApiSession> {
  const response = await fetch(`${baseUrl}/api/user/login${turnstile ? `?turnstile=${turnstile}` : ''}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const answer = (await response.json()) as ApiAnswer<{ id: number }>;
  if (!answer.success) throw new Error(`login as ${username} failed: ${answer.message}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const userId = answer.data.id;

  const call = async <T>(method: string, path: string, body?: unknown): Promise<ApiAnswer<T>> => {
    const headers: Record<string, string> = { Cookie: cookie, 'New-Api-User': String(userId) };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const reply = await fetch(`${baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await reply.json()) as ApiAnswer<T>;
  };

  return {
    userId,
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    put: (path, body) => call('PUT', path, body),
    delete: (path) => call('DELETE', path),
    async setOptions(options) {
      for (const [key, value] of Object.entries(options)) {
        const answer = await call('PUT', '/api/option/', { key, value });
        if (!answer.success) throw new Error(`setting ${key} failed: ${answer.message}`);
      }
    },
    async option(key) {
      const answer = await call<Array<{ key: string; value: string }>>('GET', '/api/option/');
      return answer.data.find((item) => item.key === key)?.value;
    },
  };
}
