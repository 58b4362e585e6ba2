import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, type TestApp, type TestUser } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';

/**
 * Cross-origin rules of the relay. Key-authenticated routes allow any origin without credentials (a
 * browser then sends no cookie and exposes nothing cookie-authenticated); the session-authenticated
 * playground allows no other origin at all. Neither ever pairs an origin with credentials.
 */
const [sqlite] = testDatabases({});
const evil = 'https://evil.example';

describe('relay CORS', () => {
  let testApp: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    if (!sqlite) throw new Error('SQLite is always available');
    testApp = await createTestApp(sqlite);
    user = await createTestUser(testApp, { quota: 1000 });
  });
  afterAll(async () => testApp.close());

  const preflight = (url: string, method = 'POST') =>
    testApp.app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin: evil, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type, new-api-user' },
    });

  it.each([
    ['/v1/chat/completions', 'POST'],
    ['/v1/models', 'GET'],
    ['/dashboard/billing/usage', 'GET'],
  ])('lets any origin call the key-authenticated %s, without credentials', async (url, method) => {
    const answer = await preflight(url, method);
    expect(answer.statusCode).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
    const call = await testApp.app.inject({ method: method as 'GET', url, headers: { origin: evil } });
    expect(call.headers['access-control-allow-origin']).toBe('*');
    expect(call.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('answers no cross-origin preflight or call of the session-authenticated playground', async () => {
    const answer = await preflight('/pg/chat/completions');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
    expect(answer.statusCode).toBe(404);

    const call = await testApp.app.inject({
      method: 'POST',
      url: '/pg/chat/completions',
      headers: { ...user.headers, origin: evil, 'content-type': 'application/json' },
      payload: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(call.headers['access-control-allow-origin']).toBeUndefined();
    expect(call.headers['access-control-allow-credentials']).toBeUndefined();
  });
});
