import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { TestApp } from '../../../testing/test-app.ts';
import { taskPollerOf } from '../task-module.ts';

export interface JsonAnswer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire answers, checked by the tests
}

/** A plain HTTP client as midjourney-proxy and Suno clients are: JSON in, JSON out, the key in a header. */
export async function callJson(baseUrl: string, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown): Promise<JsonAnswer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const parsed = safeParseJson(text);
  return { status: response.status, body: parsed.ok ? parsed.value : text };
}

/** Runs poller passes (what the 15-second timer does) until `done` says so; fails after `maxPasses`. */
export async function pollUntil(testApp: TestApp, done: () => Promise<boolean>, maxPasses = 10): Promise<number> {
  for (let pass = 1; pass <= maxPasses; pass += 1) {
    await taskPollerOf(testApp.app.relay).pollOnce();
    if (await done()) return pass;
  }
  throw new Error(`not done after ${maxPasses} polling passes`);
}

/** The refund rows (type 6) of a user, oldest first. */
export function refundLogs(testApp: TestApp, userId: number) {
  return testApp.context.logDatabase.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 6).orderBy('id').execute();
}
