import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movableClock } from '../../api/user/testing/account-test-kit.ts';
import { SlowDown } from '../../../core/http/slow-down.ts';
import { createTestApp, createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { seedToken } from '../testing/relay-seed.ts';
import { KeyGuessGuard, keyGuessLimits } from './key-guess-guard.ts';

describe('guessing relay keys', () => {
  it('lets an address fail twenty times freely, then makes each of its lookups wait longer, until the window ends', async () => {
    const clock = movableClock();
    const waits: number[] = [];
    const guard = new KeyGuessGuard(clock, new SlowDown({}, async (ms) => waits.push(ms)));
    for (let attempt = 0; attempt < keyGuessLimits.failures; attempt += 1) {
      await guard.beforeLookup('203.0.113.9');
      guard.failed('203.0.113.9');
    }
    expect(waits).toEqual([]);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await guard.beforeLookup('203.0.113.9');
      guard.failed('203.0.113.9');
    }
    await guard.beforeLookup('198.51.100.7');
    expect(waits).toEqual([250, 500, 1000]);
    clock.advance(keyGuessLimits.windowMs);
    await guard.beforeLookup('203.0.113.9');
    expect(waits).toHaveLength(3);
  });
});

describe.each(testDatabases())('guessing relay keys through /v1 on $dialect', (database) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp(database);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const models = (key: string, remoteAddress: string) =>
    testApp.app.inject({ method: 'GET', url: '/v1/models', headers: { authorization: `Bearer sk-${key}` }, remoteAddress });

  it('slows an address down after twenty unknown keys, while its known keys and other addresses go on at once', async () => {
    const user = await createTestUser(testApp, { quota: 1000 });
    const known = await seedToken(testApp, user.id);
    const guesser = '203.0.113.50';
    for (let attempt = 0; attempt < keyGuessLimits.failures; attempt += 1)
      expect((await models(`guess${attempt}`.padEnd(48, 'x'), guesser)).statusCode).toBe(401);
    const started = Date.now();
    expect((await models('one-more-guess'.padEnd(48, 'x'), guesser)).statusCode).toBe(401);
    expect((await models('and-another'.padEnd(48, 'x'), guesser)).statusCode).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250 + 500 - 20);
    // The key in memory never waits, from the guessing address or any other.
    expect((await models(known.key, guesser)).statusCode).toBe(200);
    expect((await models('first-try-elsewhere'.padEnd(48, 'x'), '198.51.100.20')).statusCode).toBe(401);
  });
});
