import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { startFakeHttpServer } from '../oauth/testing/fake-http-server.ts';

/** Counts the real password checks, so a test can see how many attempts got past the limiter. */
const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../core/platform/password-hasher.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../core/platform/password-hasher.ts')>();
  return {
    ...original,
    verifyPassword: async (password: string, stored: string) => {
      checks.count += 1;
      return original.verifyPassword(password, stored);
    },
  };
});

const redisUrl = process.env.TEST_REDIS_URL;
const sqlite = testDatabases({})[0];
if (!sqlite) throw new Error('SQLite test database missing');

/** A fresh client address per call: per-address counters live in the shared Redis for minutes. */
const freshAddress = () => `10.${randomBytes(3).join('.')}`;

const stores: Array<{ store: string; env: Record<string, string> }> = [
  { store: 'memory', env: {} },
  ...(redisUrl ? [{ store: 'redis', env: { REDIS_CONN_STRING: redisUrl } }] : []),
];

describe.each(stores)('login limits on the $store store', ({ env }) => {
  let testApp: TestApp;
  let turnstile: Awaited<ReturnType<typeof startFakeHttpServer>>;

  beforeAll(async () => {
    turnstile = await startFakeHttpServer({
      'POST /turnstile/v0/siteverify': (request) => ({
        json: { success: new URLSearchParams(request.body).get('response') === 'human-token', 'error-codes': [] },
      }),
    });
    testApp = await createTestApp(sqlite, { ...env, TURNSTILE_VERIFY_URL: `${turnstile.url}/turnstile/v0/siteverify` });
  });
  afterAll(async () => {
    await testApp.close();
    await turnstile.close();
  });
  beforeEach(async () => {
    for (const [key, value] of Object.entries({ TurnstileCheckEnabled: 'false', TurnstileSiteKey: '', TurnstileSecretKey: '' }))
      await testApp.context.options.set(key, value);
  });

  const login = async (username: string, password: string, remoteAddress: string, query = '') => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/api/user/login${query}`,
      payload: { username, password },
      remoteAddress,
      headers: { 'accept-language': 'en' },
    });
    return { status: response.statusCode, body: response.json<{ success: boolean; message: string; code?: string }>() };
  };
  /** Fills one address's failure budget (30) with wrong passwords for 30 different usernames. */
  const exhaust = async (address: string) => {
    const prefix = randomBytes(3).toString('hex');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => login(`nobody-${prefix}-${index}`, 'wrong-password', address)));
    expect(answers.every((answer) => answer.status === 200 && answer.body.success === false)).toBe(true);
  };
  const configureTurnstile = async () => {
    await testApp.context.options.set('TurnstileSiteKey', 'site-key');
    await testApp.context.options.set('TurnstileSecretKey', 'turnstile-secret');
  };

  it('lets 200 parallel wrong passwords for one account make at most 10 real checks', async () => {
    const user = await createTestUser(testApp);
    checks.count = 0;
    const answers = await Promise.all(Array.from({ length: 200 }, () => login(user.username, 'wrong-password', freshAddress())));
    expect(checks.count).toBeLessThanOrEqual(10);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(200 - checks.count);
    const blocked = await login(user.username, user.password, freshAddress());
    expect(blocked.status).toBe(429);
  });

  it('asks an address past its limit for the human check instead of refusing other accounts', async () => {
    await configureTurnstile();
    const address = freshAddress();
    await exhaust(address);
    const user = await createTestUser(testApp);
    const asked = await login(user.username, user.password, address);
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ success: false, message: 'Complete the human check, then log in again', code: 'turnstile_required' });
    expect((await login(user.username, user.password, address, '?turnstile=robot-token')).body.message).toBe(
      'Turnstile verification failed, refresh and try again',
    );
    const passed = await login(user.username, user.password, address, '?turnstile=human-token');
    expect(passed.body.success).toBe(true);
    expect(new URLSearchParams(turnstile.requests.at(-1)?.body ?? '').get('secret')).toBe('turnstile-secret');
  });

  it('checks the token once when every login already needs the human check', async () => {
    await configureTurnstile();
    await testApp.context.options.set('TurnstileCheckEnabled', 'true');
    const address = freshAddress();
    const user = await createTestUser(testApp);
    const prefix = randomBytes(3).toString('hex');
    for (let index = 0; index < 31; index += 1) await login(`nobody-${prefix}-${index}`, 'wrong-password', address, '?turnstile=human-token');
    const before = turnstile.requests.length;
    expect((await login(user.username, user.password, address, '?turnstile=human-token')).body.success).toBe(true);
    expect(turnstile.requests.length).toBe(before + 1);
  });

  it('slows an address past its limit down, without Turnstile, and still logs other accounts in', async () => {
    const address = freshAddress();
    await exhaust(address);
    const user = await createTestUser(testApp);
    const answer = await login(user.username, user.password, address);
    expect(answer.body).toMatchObject({ success: true, data: { id: user.id } });
  });

  it('still refuses an account past its own limit, even with the right password and the human check', async () => {
    await configureTurnstile();
    const user = await createTestUser(testApp);
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await login(user.username, `wrong-${attempt}`, freshAddress())).status).toBe(200);
    const refused = await login(user.username, user.password, freshAddress(), '?turnstile=human-token');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, message: 'Too many requests, try again later' });
  });
});

describe.each(stores)("new-api's critical request limit on login, on the $store store", ({ env }) => {
  let testApp: TestApp;
  let turnstile: Awaited<ReturnType<typeof startFakeHttpServer>>;

  beforeAll(async () => {
    turnstile = await startFakeHttpServer({
      'POST /turnstile/v0/siteverify': (request) => ({
        json: { success: new URLSearchParams(request.body).get('response') === 'human-token', 'error-codes': [] },
      }),
    });
    testApp = await createTestApp(sqlite, {
      ...env,
      TURNSTILE_VERIFY_URL: `${turnstile.url}/turnstile/v0/siteverify`,
      CRITICAL_RATE_LIMIT_ENABLE: 'true',
      CRITICAL_RATE_LIMIT: '3',
      CRITICAL_RATE_LIMIT_DURATION: '1200',
    });
  });
  afterAll(async () => {
    await testApp.close();
    await turnstile.close();
  });

  const login = async (username: string, password: string, remoteAddress: string, query = '') => {
    const response = await testApp.app.inject({ method: 'POST', url: `/api/user/login${query}`, payload: { username, password }, remoteAddress });
    return { status: response.statusCode, body: response.body ? response.json<{ success: boolean; code?: string; data?: { id: number } }>() : undefined };
  };

  it('refuses an address past it without Turnstile, as new-api does', async () => {
    const address = freshAddress();
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await login(`nobody-${attempt}`, 'wrong', address)).status).toBe(200);
    const user = await createTestUser(testApp);
    expect((await login(user.username, user.password, address)).status).toBe(429);
  });

  it('asks for the human check instead when Turnstile is configured, so a guesser cannot lock out everyone behind the address', async () => {
    await testApp.context.options.set('TurnstileSiteKey', 'site-key');
    await testApp.context.options.set('TurnstileSecretKey', 'turnstile-secret');
    const address = freshAddress();
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await login(`nobody-${attempt}`, 'wrong', address)).status).toBe(200);
    const colleague = await createTestUser(testApp);
    const asked = await login(colleague.username, colleague.password, address);
    expect(asked).toMatchObject({ status: 200, body: { success: false, code: 'turnstile_required' } });
    expect((await login(colleague.username, colleague.password, address, '?turnstile=not-human')).body?.success).toBe(false);
    const passed = await login(colleague.username, colleague.password, address, '?turnstile=human-token');
    expect(passed.body).toMatchObject({ success: true, data: { id: colleague.id } });
  });
});
