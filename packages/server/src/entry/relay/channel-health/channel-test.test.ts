import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { createTestApp, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { FakeOpenAIUpstream, slowAnswerMs } from '../testing/fake-openai-upstream.ts';
import { seedChannel } from '../testing/relay-seed.ts';

describe.each(testDatabases())('channel tests and automatic enable/disable on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let root: TestUser;

  const channelRow = (id: number) =>
    testApp.context.database.db
      .selectFrom('channels')
      .select(['status', 'response_time', 'test_time', 'other_info'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it('tests one channel with its test model and records the response time', async () => {
    const id = await seedChannel(testApp, { key: 'healthy', baseUrl: fake.baseUrl, models: ['gpt-4o-mini', 'gpt-4o'], testModel: 'gpt-4o' });
    const response = await testApp.app.inject({ method: 'GET', url: `/api/channel/test/${id}`, headers: root.headers });
    expect(response.json()).toMatchObject({ success: true, message: '' });
    expect(typeof response.json().time).toBe('number');
    expect(fake.requests.at(-1)?.body).toMatchObject({ model: 'gpt-4o', max_tokens: 16 });
    const row = await channelRow(id);
    expect(row.test_time).toBeGreaterThan(0);
    const chosen = await testApp.app.inject({ method: 'GET', url: `/api/channel/test/${id}?model=gpt-4o-mini`, headers: root.headers });
    expect(chosen.json().success).toBe(true);
    expect(fake.requests.at(-1)?.body?.model).toBe('gpt-4o-mini');
  });

  it('passes a model nobody could call, saying callers would be refused it for lack of a price, until self-use mode is on', async () => {
    const id = await seedChannel(testApp, { key: 'unpriced', baseUrl: fake.baseUrl, models: ['house-model-7b'] });
    const zh = (await testApp.app.inject({ method: 'GET', url: `/api/channel/test/${id}`, headers: root.headers })).json();
    expect(zh).toMatchObject({ success: true, model: 'house-model-7b', unpriced: true });
    expect(zh.message).toContain('house-model-7b 没有设置价格或倍率');
    const en = (await testApp.app.inject({ method: 'GET', url: `/api/channel/test/${id}`, headers: { ...root.headers, 'accept-language': 'en' } })).json();
    expect(en.message).toBe(
      'The upstream answered, but house-model-7b has no price or ratio: callers will get 400 (no price configured). Set a price for it, or turn on self-use mode',
    );
    const priced = (await testApp.app.inject({ method: 'GET', url: `/api/channel/test/${id}?model=gpt-4o-mini`, headers: root.headers })).json();
    expect(priced).toMatchObject({ success: true, message: '', model: 'gpt-4o-mini', unpriced: false });
    await testApp.context.options.set('SelfUseModeEnabled', 'true');
    const selfUse = (await testApp.app.inject({ method: 'GET', url: `/api/channel/test/${id}`, headers: root.headers })).json();
    expect(selfUse).toMatchObject({ success: true, message: '', unpriced: false });
    await testApp.context.options.set('SelfUseModeEnabled', 'false');
  });

  it('reports a failure without leaking the key and disables on dead credentials when allowed', async () => {
    fake.behave('dead-key', 'status-401');
    const id = await seedChannel(testApp, { key: 'dead-key', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'] });
    const first = (await testApp.app.inject({ method: 'GET', url: `/api/channel/test/${id}`, headers: root.headers })).json();
    expect(first.success).toBe(false);
    expect(first.message).not.toContain('dead-key');
    expect((await channelRow(id)).status).toBe(ChannelStatus.enabled);
    await testApp.context.options.set('AutomaticDisableChannelEnabled', 'true');
    await testApp.app.inject({ method: 'GET', url: `/api/channel/test/${id}`, headers: root.headers });
    expect((await channelRow(id)).status).toBe(ChannelStatus.autoDisabled);

    // Fixed upstream + automatic enabling: a passing test brings it back.
    fake.behave('dead-key', 'ok');
    await testApp.app.inject({ method: 'GET', url: `/api/channel/test/${id}`, headers: root.headers });
    expect((await channelRow(id)).status).toBe(ChannelStatus.autoDisabled);
    await testApp.context.options.set('AutomaticEnableChannelEnabled', 'true');
    await testApp.app.inject({ method: 'GET', url: `/api/channel/test/${id}`, headers: root.headers });
    expect((await channelRow(id)).status).toBe(ChannelStatus.enabled);
    expect(testApp.app.relay.channels.tiers('default', 'gpt-4o-mini').flatMap((tier) => tier.channels.map((entry) => entry.channel.id))).toContain(id);
  });

  it('never re-enables a manually disabled channel', async () => {
    const id = await seedChannel(testApp, { key: 'manual-off', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'], status: ChannelStatus.manuallyDisabled });
    await testApp.app.inject({ method: 'GET', url: `/api/channel/test/${id}`, headers: root.headers });
    expect((await channelRow(id)).status).toBe(ChannelStatus.manuallyDisabled);
  });

  it('disables a channel slower than ChannelDisableThreshold', async () => {
    fake.behave('slowpoke', 'slow');
    const id = await seedChannel(testApp, { key: 'slowpoke', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'] });
    // The fake takes slowAnswerMs (30 ms) to answer; the threshold is a third of that.
    await testApp.context.options.set('ChannelDisableThreshold', String(slowAnswerMs / 3 / 1000));
    await testApp.app.inject({ method: 'GET', url: `/api/channel/test/${id}`, headers: root.headers });
    const row = await channelRow(id);
    expect(row.status).toBe(ChannelStatus.autoDisabled);
    expect(JSON.parse(row.other_info ?? '{}').status_reason).toContain('exceeds the threshold');
    await testApp.context.options.set('ChannelDisableThreshold', '5');
  });

  it('tests all channels in the background and says so when already running', async () => {
    const first = await testApp.app.inject({ method: 'GET', url: '/api/channel/test', headers: root.headers });
    expect(first.json().success).toBe(true);
    const second = await testApp.app.inject({ method: 'GET', url: '/api/channel/test', headers: { ...root.headers, 'accept-language': 'en' } });
    expect(second.json()).toEqual({ success: false, message: 'Test is already running' });
  });

  it('is for administrators only', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/channel/test/1' });
    expect(response.statusCode).toBe(401);
  });
});
