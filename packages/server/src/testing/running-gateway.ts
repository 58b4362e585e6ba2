import { gatewayEntry } from './gateway-bundle.ts';
import { freePort, type MainProcess, startMainProcess } from './main-process.ts';

/** A gateway process started as users start it, answering on `baseUrl`. */
export interface RunningGateway extends MainProcess {
  baseUrl: string;
}

/**
 * Starts the gateway as `npm start` does (the run's server bundle, see gateway-bundle.ts; or `entry`) on a
 * free port and waits until `/api/status` answers (or the process dies).
 */
export async function startRunningGateway(env: Record<string, string>, cwd: string, entry = gatewayEntry()): Promise<RunningGateway> {
  const port = await freePort();
  const started = startMainProcess({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env }, cwd, entry);
  const baseUrl = `http://127.0.0.1:${port}`;
  // 90 s: a start (Node loading the server, the database opened and migrated) took over 30 s on the
  // 2-core test machine while other suites ran beside it.
  for (let attempt = 0; ; attempt += 1) {
    const ok = await fetch(`${baseUrl}/api/status`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (started.child.exitCode !== null || attempt > 900) throw new Error(`gateway did not start:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { ...started, baseUrl };
}

/** A console session of the root user: its id and the headers its API calls carry. */
export interface RootSession {
  id: number;
  headers: Record<string, string>;
  post<T = { success: boolean; message: string; data: unknown }>(path: string, body: unknown): Promise<T>;
  put<T = { success: boolean; message: string; data: unknown }>(path: string, body: unknown): Promise<T>;
  delete<T = { success: boolean; message: string; data: unknown }>(path: string): Promise<T>;
}

export function loginAsRoot(baseUrl: string, password: string): Promise<RootSession> {
  return loginAs(baseUrl, 'root', password);
}

/** A console session of any user (the same shape as root's). */
export async function loginAs(baseUrl: string, username: string, password: string): Promise<RootSession> {
  const login = await fetch(`${baseUrl}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const user = ((await login.json()) as { data: { id: number } }).data;
  const headers = {
    cookie: /session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0] ?? '',
    'new-api-user': String(user.id),
    'content-type': 'application/json',
  };
  // A body-less call says no content type: Fastify refuses an empty JSON body.
  const { 'content-type': _json, ...withoutBody } = headers;
  const send = async <T>(method: string, path: string, body?: unknown) => {
    const init = body === undefined ? { method, headers: withoutBody } : { method, headers, body: JSON.stringify(body) };
    return (await (await fetch(`${baseUrl}${path}`, init)).json()) as T;
  };
  return {
    id: user.id,
    headers,
    post: (path, body) => send('POST', path, body),
    put: (path, body) => send('PUT', path, body),
    delete: (path) => send('DELETE', path),
  };
}
