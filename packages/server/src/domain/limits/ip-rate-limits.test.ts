import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config/config.ts';
import type { Clock } from '../../core/platform/clock.ts';
import { seedToken } from '../../entry/relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { criticalRoutes } from './ip-rate-limits.ts';

function movableClock(): Clock & { advance(milliseconds: number): void } {
  let now = Math.floor(Date.now() / 600_000) * 600_000 + 1_000;
  return { now: () => now, unixSeconds: () => Math.floor(now / 1000), advance: (milliseconds) => void (now += milliseconds) };
}

describe("new-api's request limit settings", () => {
  it('default to new-api’s counts and windows, each changed or disabled by its variable', () => {
    const defaults = loadConfig({}).rateLimits;
    expect(defaults).toEqual({
      globalApi: { enabled: true, count: 360, durationSeconds: 180 },
      globalWeb: { enabled: true, count: 120, durationSeconds: 180 },
      critical: { enabled: true, count: 20, durationSeconds: 1200 },
      search: { enabled: true, count: 10, durationSeconds: 60 },
    });
    const changed = loadConfig({ GLOBAL_API_RATE_LIMIT: '100', GLOBAL_API_RATE_LIMIT_DURATION: '60', CRITICAL_RATE_LIMIT_ENABLE: 'false' }).rateLimits;
    expect(changed.globalApi).toEqual({ enabled: true, count: 100, durationSeconds: 60 });
    expect(changed.critical.enabled).toBe(false);
    expect(() => loadConfig({ SEARCH_RATE_LIMIT: '0' })).toThrow('SEARCH_RATE_LIMIT');
  });
});

describe.each(testDatabases())('IP and search limits on $dialect', (database) => {
  let testApp: TestApp;
  const clock = movableClock();
  const dist = mkdtempSync(join(tmpdir(), 'sb-limits-web-'));

  beforeAll(async () => {
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title>');
    testApp = await createTestApp(
      database,
      {
        WEB_DIST_PATH: dist,
        GLOBAL_API_RATE_LIMIT_ENABLE: 'true',
        GLOBAL_API_RATE_LIMIT: '8',
        GLOBAL_API_RATE_LIMIT_DURATION: '180',
        GLOBAL_WEB_RATE_LIMIT_ENABLE: 'true',
        GLOBAL_WEB_RATE_LIMIT: '3',
        CRITICAL_RATE_LIMIT_ENABLE: 'true',
        CRITICAL_RATE_LIMIT: '2',
        SEARCH_RATE_LIMIT_ENABLE: 'true',
        SEARCH_RATE_LIMIT: '2',
      },
      clock,
    );
  });
  afterAll(async () => {
    await testApp.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const from = (remoteAddress: string, url: string, options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; payload?: object } = {}) =>
    testApp.app.inject({
      method: options.method ?? 'GET',
      url,
      remoteAddress,
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.payload ? { payload: options.payload } : {}),
    });

  it('names in its critical table only routes the app registers (a misspelt entry would limit nothing)', () => {
    const registered = new Set(testApp.app.switchboard.routes.map((route) => `${route.method} ${route.url}`));
    const unregistered = [...criticalRoutes].filter((route) => !registered.has(route));
    expect(unregistered).toEqual([]);
    expect(criticalRoutes.size).toBeGreaterThan(20);
  });

  it('answers the request past GLOBAL_API_RATE_LIMIT per address with a bare 429 and Retry-After, however many arrive at once', async () => {
    clock.advance(600_000);
    const answers = await Promise.all(Array.from({ length: 100 }, () => from('10.1.0.1', '/api/status')));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(8);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(92);
    for (const answer of refused) {
      expect(answer.body).toBe('');
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(answer.headers['retry-after'])).toBeLessThanOrEqual(180);
    }
    // Another address has its own count; unknown /api paths and the legacy billing routes count too.
    expect((await from('10.1.0.2', '/api/status')).statusCode).toBe(200);
    expect((await from('10.1.0.1', '/api/no-such-route')).statusCode).toBe(429);
    expect((await from('10.1.0.1', '/v1/dashboard/billing/subscription')).statusCode).toBe(429);
    // The relay is not under the console's limit (new-api: /v1 only has the model request limit).
    expect((await from('10.1.0.1', '/v1/models')).statusCode).toBe(401);
    // The window passes: the address may call again.
    clock.advance(180_000);
    expect((await from('10.1.0.1', '/api/status')).statusCode).toBe(200);
  });

  it('holds the critical routes (login) to CRITICAL_RATE_LIMIT per address', async () => {
    clock.advance(1_200_000);
    const login = () => from('10.2.0.1', '/api/user/login', { method: 'POST', payload: { username: 'nobody', password: 'wrong-password' } });
    const answers = await Promise.all(Array.from({ length: 6 }, login));
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(4);
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(2);
    // Plain API routes of the same address still pass (their own, larger count).
    expect((await from('10.2.0.1', '/api/status')).statusCode).toBe(200);
  });

  it('holds console pages to GLOBAL_WEB_RATE_LIMIT per address', async () => {
    clock.advance(600_000);
    const pages = await Promise.all(['/', '/token', '/log', '/channel'].map((path) => from('10.3.0.1', path)));
    expect(pages.map((page) => page.statusCode).sort()).toEqual([200, 200, 200, 429]);
    expect((await from('10.3.0.2', '/token')).statusCode).toBe(200);
  });

  it('holds searches to SEARCH_RATE_LIMIT per user, whatever their address', async () => {
    clock.advance(600_000);
    const alice = await createTestUser(testApp);
    const bob = await createTestUser(testApp);
    await seedToken(testApp, alice.id, { name: 'findme' });
    const search = (headers: Record<string, string>, address: string) => from(address, '/api/token/search?keyword=find', { headers });
    expect((await search(alice.headers, '10.4.0.1')).statusCode).toBe(200);
    expect((await search(alice.headers, '10.4.0.2')).statusCode).toBe(200);
    expect((await search(alice.headers, '10.4.0.3')).statusCode).toBe(429);
    expect((await search(bob.headers, '10.4.0.1')).statusCode).toBe(200);
  });
});

describe.each(testDatabases().slice(0, 1))('with the limits disabled on $dialect', (database) => {
  it('lets any number of console calls through', async () => {
    const testApp = await createTestApp(database, { GLOBAL_API_RATE_LIMIT: '2', CRITICAL_RATE_LIMIT: '1' });
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => testApp.app.inject({ method: 'GET', url: '/api/status' })));
      expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    } finally {
      await testApp.close();
    }
  });
});
