import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from './testing/fake-openai-upstream.ts';
import { flushLedger, seedChannel, seedToken } from './testing/relay-seed.ts';

const palmReason = 'Google has shut down the PaLM API; serve these models from a Gemini channel (type 24) instead';

/**
 * A PaLM2 channel migrated from new-api: Google shut the API down, so it is never relayed. The
 * console test and the relay say so in words, instead of "not relayed" or "no available channel".
 */
describe.each(testDatabases())('channels of a type that is not relayed, on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let root: TestUser;
  let user: TestUser;
  let palm: number;

  const chat = (apiKey: string, model: string, headers: Record<string, string> = {}) =>
    testApp.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, ...headers },
      payload: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] }),
    });
  const quotaOf = async (id: number) =>
    Number((await testApp.context.database.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota);

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    user = await createTestUser(testApp, { quota: 5_000_000 });
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, 'PaLM-2': 1, 'chat-bison-001': 1 }));
    palm = await seedChannel(testApp, { type: 11, key: 'palm-key', baseUrl: fake.baseUrl, models: ['PaLM-2', 'chat-bison-001', 'gpt-4o-mini'] });
    await seedChannel(testApp, { type: 1, key: 'openai-key', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'] });
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it('answers the console channel test with the reason, in the console language, and sends nothing', async () => {
    const before = fake.requests.length;
    const test = (headers: Record<string, string>) =>
      testApp.app.inject({ method: 'GET', url: `/api/channel/test/${palm}`, headers: { ...root.headers, ...headers } });
    expect((await test({ 'accept-language': 'en' })).json()).toMatchObject({
      success: false,
      message: `This channel type cannot be used, so it cannot be tested: Google PaLM2: ${palmReason}`,
    });
    expect((await test({})).json()).toMatchObject({ success: false, message: `该渠道类型目前无法使用，无法测试：Google PaLM2: ${palmReason}` });
    expect(fake.requests.length).toBe(before);
  });

  it('tells the relay caller why a model only PaLM2 channels list has no channel, and charges nothing', async () => {
    const token = await seedToken(testApp, user.id);
    const quotaBefore = await quotaOf(user.id);
    const refused = await chat(token.apiKey, 'PaLM-2');
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error.code).toBe('model_not_found');
    expect(refused.json().error.message).toContain(
      `No available channel for model PaLM-2 under group default: the channels that list it are of a type that is not relayed (Google PaLM2: ${palmReason})`,
    );
    const chinese = await chat(token.apiKey, 'chat-bison-001', { 'accept-language': 'zh-CN' });
    expect(chinese.json().error.message).toContain('当前分组 default 下对于模型 chat-bison-001 无可用渠道：提供该模型的渠道类型无法转发（Google PaLM2:');
    // A model some relayed channel serves is answered by it; one nobody lists gets the plain answer.
    expect((await chat(token.apiKey, 'gpt-4o-mini')).statusCode).toBe(200);
    expect(fake.requests.every((request) => request.key !== 'palm-key')).toBe(true);
    const unknown = await chat(token.apiKey, 'gpt-4o');
    expect(unknown.json().error.message).toContain('No available channel for model gpt-4o under group default');
    expect(unknown.json().error.message).not.toContain('PaLM');
    await flushLedger(testApp);
    expect(await quotaOf(user.id)).toBeLessThan(quotaBefore);
    const logs = await testApp.context.logDatabase.db
      .selectFrom('logs')
      .select('model_name')
      .where('user_id', '=', user.id)
      .where('type', '=', LogType.consume)
      .execute();
    expect(logs.map((row) => row.model_name)).toEqual(['gpt-4o-mini']);
  });
});
