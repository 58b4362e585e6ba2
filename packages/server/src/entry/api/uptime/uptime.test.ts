import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { startFakeUptimeKuma, type FakeUptimeKuma } from './testing/fake-uptime-kuma.ts';

/** What new-api answers for `__fixtures__/status-page-core.json` with the 1.x heartbeats (latest beat's status). */
const coreMonitors = [
  { name: 'OpenAI relay', uptime: 0.9986, status: 1, group: 'Gateways' },
  { name: 'Claude relay', uptime: 0.95, status: 0, group: 'Gateways' },
  { name: 'Web console', uptime: 1, status: 3, group: 'Console' },
];

describe.each(testDatabases())('GET /api/uptime/status on $dialect', (database) => {
  let testApp: TestApp;
  let kuma: FakeUptimeKuma;

  const status = async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/uptime/status' });
    expect(response.statusCode).toBe(200);
    return response.json() as { success: boolean; message: string; data: unknown };
  };
  const configure = (groups: unknown[]) => testApp.context.options.set('console_setting.uptime_kuma_groups', JSON.stringify(groups));
  /** The operator lets the server reach the local fake (the outgoing policy refuses loopback by default). */
  const allowLoopback = async (on: boolean) => {
    await testApp.context.options.set('fetch_setting.ip_filter_mode', on ? 'true' : 'false');
    await testApp.context.options.set('fetch_setting.ip_list', on ? '["127.0.0.1"]' : '[]');
    await testApp.context.options.set('fetch_setting.allowed_ports', on ? '[]' : '["80","443","8080","8443"]');
  };

  beforeAll(async () => {
    testApp = await createTestApp(database);
    kuma = await startFakeUptimeKuma();
  });
  afterAll(async () => {
    await testApp.close();
    await kuma.close();
  });
  beforeEach(async () => {
    kuma.requests.length = 0;
    await allowLoopback(false);
    await testApp.context.options.set('console_setting.uptime_kuma_groups', '');
  });

  it('answers an empty list to anyone while no group is configured', async () => {
    expect(await status()).toEqual({ success: true, message: '', data: [] });
    expect(kuma.requests).toEqual([]);
  });

  it('refuses a loopback status page under the default outgoing policy: the group comes back empty and nothing is sent', async () => {
    await configure([{ categoryName: 'Core', url: kuma.url, slug: 'core', description: '' }]);
    expect((await status()).data).toEqual([{ categoryName: 'Core', monitors: [] }]);
    expect(kuma.requests).toEqual([]);
  });

  it("answers each group's monitors in new-api's shape, groups in the configured order, an unreadable page as an empty group", async () => {
    await allowLoopback(true);
    await configure([
      { categoryName: 'Core', url: `${kuma.url}/`, slug: 'core' },
      { categoryName: 'Missing', url: kuma.url, slug: 'no-such-page' },
      { categoryName: 'Core v2', url: kuma.url, slug: 'core-v2', description: 'Uptime Kuma 2' },
    ]);
    expect(await status()).toEqual({
      success: true,
      message: '',
      data: [
        { categoryName: 'Core', monitors: coreMonitors },
        { categoryName: 'Missing', monitors: [] },
        {
          categoryName: 'Core v2',
          monitors: [
            { name: 'OpenAI relay', uptime: 0.9986, status: 1, group: 'Gateways' },
            { name: 'Claude relay', uptime: 0.5, status: 0, group: 'Gateways' },
            { name: 'Web console', uptime: 1, status: 0, group: 'Console' },
          ],
        },
      ],
    });
    expect([...kuma.requests].sort()).toEqual(
      [
        '/api/status-page/core',
        '/api/status-page/heartbeat/core',
        '/api/status-page/no-such-page',
        '/api/status-page/heartbeat/no-such-page',
        '/api/status-page/core-v2',
        '/api/status-page/heartbeat/core-v2',
      ].sort(),
    );
  });

  it('serves repeated calls from one fetch, and fetches again once the groups change', async () => {
    await allowLoopback(true);
    await configure([{ categoryName: 'Core', url: kuma.url, slug: 'core' }]);
    for (let call = 0; call < 3; call += 1) expect((await status()).data).toEqual([{ categoryName: 'Core', monitors: coreMonitors }]);
    expect(kuma.requests).toHaveLength(2);
    await configure([{ categoryName: 'Renamed', url: kuma.url, slug: 'core' }]);
    expect((await status()).data).toEqual([{ categoryName: 'Renamed', monitors: coreMonitors }]);
    expect(kuma.requests).toHaveLength(4);
  });
});
