import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';

/** The console page and files as a browser gets them: security headers, and API paths never answered with the page. */
const [sqlite] = testDatabases({});

describe('console assets', () => {
  const webDist = mkdtempSync(join(tmpdir(), 'sb-console-'));
  let testApp: TestApp;

  beforeAll(async () => {
    if (!sqlite) throw new Error('SQLite is always available');
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(webDist, 'assets', 'app-1.js'), 'console.log(1);');
    testApp = await createTestApp(sqlite, { WEB_DIST_PATH: webDist });
  });
  afterAll(async () => {
    await testApp.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const get = (url: string) => testApp.app.inject({ method: 'GET', url });
  const directives = (policy: string | number | string[] | undefined) =>
    new Map(
      String(policy)
        .split(';')
        .map((part) => {
          const [name = '', ...values] = part.trim().split(/\s+/);
          return [name, values] as const;
        }),
    );

  it.each(['/', '/token', '/assets/app-1.js'])('sends %s with a content security policy, no framing and no sniffing', async (url) => {
    const answer = await get(url);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    const policy = directives(answer.headers['content-security-policy']);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    // Scripts from the console's origin and the two login widgets only: nothing inline, no eval.
    expect(policy.get('script-src')).toEqual(["'self'", 'https://challenges.cloudflare.com', 'https://telegram.org']);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
  });

  it('allows string evaluation only while Telegram login is on (its widget evaluates data-onauth)', async () => {
    await testApp.context.options.set('TelegramOAuthEnabled', 'true');
    try {
      expect(directives((await get('/')).headers['content-security-policy']).get('script-src')).toContain("'unsafe-eval'");
    } finally {
      await testApp.context.options.set('TelegramOAuthEnabled', 'false');
    }
    expect(directives((await get('/')).headers['content-security-policy']).get('script-src')).not.toContain("'unsafe-eval'");
  });

  it('marks API answers nosniff', async () => {
    const answer = await get('/api/status');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  // The static file handler refuses non-canonical paths (`//…`) with 403 before the not-found handler.
  const refusal = (url: string) => (url.startsWith('//') ? 403 : 404);

  it.each(['/api/nothing', '/%61pi/nothing', '/API/nothing', '/Api/channel/1', '//api/nothing', '/api%2fnothing'])(
    'answers %s with the JSON refusal, never the console page',
    async (url) => {
      const answer = await get(url);
      expect(answer.statusCode).toBe(refusal(url));
      expect(answer.headers['content-type']).toContain('application/json');
      expect(answer.json()).toMatchObject({ success: false });
    },
  );

  it.each(['/v1/nothing', '/V1/nothing', '//v1/nothing', '/%761/nothing'])('answers %s in the relay error format', async (url) => {
    const answer = await get(url);
    expect(answer.statusCode).toBe(refusal(url));
    expect(answer.json()).toMatchObject({ error: { type: 'new_api_error' } });
  });
});
