import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOpenAIUpstream } from '../../entry/relay/testing/fake-openai-upstream.ts';
import { seedChannel, seedToken } from '../../entry/relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';

const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');
const metricsToken = 'scraper-token-0123456789';

/** The value of an unlabelled sample in Prometheus' text format. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe.each(sqlite)('GET /metrics on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    fake.usage = { prompt: 20, completion: 10 };
    await fake.start();
    testApp = await createTestApp(database, { METRICS_TOKEN: metricsToken });
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, 'metered-model': 1 }));
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it('refuses a scraper without the token', async () => {
    expect((await testApp.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await testApp.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong-token-0123456789' } })).statusCode).toBe(401);
  });

  it("reports Node's figures and the relay's charges", async () => {
    const user = await createTestUser(testApp, { quota: 1_000_000 });
    const token = await seedToken(testApp, user.id);
    await seedChannel(testApp, { key: 'metered-upstream', baseUrl: fake.baseUrl, models: ['metered-model'] });
    const relayed = await testApp.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
      payload: { model: 'metered-model', messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(relayed.statusCode).toBe(200);

    const scraped = await testApp.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${metricsToken}` } });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.headers['content-type']).toContain('text/plain');
    expect(sample(scraped.body, 'nodejs_eventloop_lag_max_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(scraped.body, 'switchboard_relay_requests_charged_total')).toBe(1);
    // Ratio 1, completion ratio 1: 20 prompt + 10 completion tokens.
    expect(sample(scraped.body, 'switchboard_quota_charged_total')).toBe(30);
    expect(sample(scraped.body, 'switchboard_quota_held')).toBe(0);
    // The quota journal took the charge: writable, nothing failed.
    expect(sample(scraped.body, 'switchboard_quota_journal_writable')).toBe(1);
    expect(sample(scraped.body, 'switchboard_quota_journal_failed_writes_total')).toBe(0);
  });
});

describe.each(sqlite)('GET /metrics without METRICS_TOKEN on $dialect', (database) => {
  it('is off', async () => {
    const testApp = await createTestApp(database);
    try {
      const answer = await testApp.app.inject({ method: 'GET', url: '/metrics' });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ success: false });
    } finally {
      await testApp.close();
    }
  });
});
