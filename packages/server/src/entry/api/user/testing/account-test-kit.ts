import type { Clock } from '../../../../core/platform/clock.ts';
import type { TestApp } from '../../../../testing/test-app.ts';

/** A clock the test moves forward (code expiry, cooldowns) without sleeping. */
export interface MovableClock extends Clock {
  advance(seconds: number): void;
}

export function movableClock(): MovableClock {
  let offsetMs = 0;
  return {
    now: () => Date.now() + offsetMs,
    unixSeconds: () => Math.floor((Date.now() + offsetMs) / 1000),
    advance(seconds) {
      offsetMs += seconds * 1000;
    },
  };
}

export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions read arbitrary envelope data
  body: { success: boolean; message: string; data?: any };
  headers: Record<string, string | string[] | number | undefined>;
  cookies: Array<{ name: string; value: string; [key: string]: unknown }>;
}

/** One console call through inject, answering the parsed envelope. */
export async function callApi(
  testApp: TestApp,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: { headers?: Record<string, string>; body?: unknown; language?: 'en' | 'zh' } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.language) headers['accept-language'] = options.language;
  const response = await testApp.app.inject({ method, url, headers, ...(options.body === undefined ? {} : { payload: options.body as object }) });
  return { status: response.statusCode, body: response.json(), headers: response.headers, cookies: response.cookies as ApiAnswer['cookies'] };
}

/** Headers a browser would send after login: the session cookie from the answer plus New-Api-User. */
export function sessionFrom(answer: ApiAnswer, userId: number): Record<string, string> {
  const cookie = answer.cookies.find((candidate) => candidate.name === 'session');
  if (!cookie) throw new Error('no session cookie in the answer');
  return { cookie: `session=${cookie.value}`, 'new-api-user': String(userId) };
}

export async function userRow(testApp: TestApp, id: number) {
  return testApp.context.database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function logsOf(testApp: TestApp, userId: number) {
  return testApp.context.logDatabase.db.selectFrom('logs').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}
