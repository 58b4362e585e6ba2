import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config/config.ts';
import { createLogger } from '../platform/logger.ts';
import { openDependencies, type OpenedDependencies } from '../platform/open-dependencies.ts';
import { testDatabases } from '../testing/test-databases.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** Two instances on one database and one Redis: a setting saved on one is live on the other at once. */
describe.runIf(redisUrl)('options across instances through Redis', () => {
  const opened: OpenedDependencies[] = [];
  const apps: Awaited<ReturnType<typeof buildApp>>[] = [];
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const sqlite = testDatabases({})[0];
    if (!sqlite) throw new Error('SQLite test database missing');
    const created = await sqlite.create();
    drop = created.drop;
    for (let index = 0; index < 2; index += 1) {
      const config = loadConfig({ SQLITE_PATH: created.sqlitePath, REDIS_CONN_STRING: redisUrl ?? '', SESSION_SECRET: 'shared', LOG_LEVEL: 'silent', SYNC_FREQUENCY: '3600' });
      const dependencies = await openDependencies(config, createLogger('silent'));
      opened.push(dependencies);
      apps.push(await buildApp(dependencies));
    }
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const dependencies of opened) await dependencies.close();
    await drop();
  });

  it('propagates a change within a second, not at the next periodic reload', async () => {
    const [first, second] = apps;
    if (!first || !second) throw new Error('apps missing');
    await first.switchboard.context.options.set('SystemName', 'Propagated');
    const deadline = Date.now() + 1000;
    while (second.switchboard.context.options.get('SystemName') !== 'Propagated' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(second.switchboard.context.options.get('SystemName')).toBe('Propagated');
    const status = (await second.inject({ method: 'GET', url: '/api/status' })).json();
    expect(status.data.system_name).toBe('Propagated');
  });
});
