import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, TokenStatus, UserStatus } from '@switchboard/contracts';
import { changeTopics } from '../../core/platform/change-topics.ts';
import { createTestApp, createTestUser, type TestApp, type TestUser } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from './testing/fake-openai-upstream.ts';
import { flushLedger, ledgerState, seedChannel, seedToken } from './testing/relay-seed.ts';

const chatBody = (model = 'gpt-4o-mini', content = 'Hello') => ({ model, messages: [{ role: 'user', content }] });

describe.each(testDatabases())('relay caller checks on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let user: TestUser;
  let firstChannel: number;
  let secondChannel: number;

  const chat = (authorization: string | undefined, body: object = chatBody(), extra: Record<string, string> = {}) =>
    testApp.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}), ...extra },
      payload: JSON.stringify(body),
    });

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    user = await createTestUser(testApp, { quota: 5_000_000 });
    firstChannel = await seedChannel(testApp, { key: 'first-upstream', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'], priority: 5 });
    secondChannel = await seedChannel(testApp, {
      key: 'second-upstream',
      baseUrl: fake.baseUrl,
      models: ['gpt-4o-mini', 'gpt-4o'],
      groups: ['default', 'vip'],
      priority: 0,
    });
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it('accepts the key with or without sk- and refuses missing or unknown keys', async () => {
    const token = await seedToken(testApp, user.id);
    expect((await chat(`Bearer ${token.apiKey}`)).statusCode).toBe(200);
    expect((await chat(token.key)).statusCode).toBe(200);
    const missing = await chat(undefined);
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error).toMatchObject({ code: 'invalid_token', type: 'new_api_error' });
    expect(missing.json().error.message).toMatch(/^No token provided \(request id: \w+\)$/);
    expect((await chat('Bearer sk-unknownkey')).statusCode).toBe(401);
  });

  it('refuses expired, disabled and exhausted tokens with their own messages', async () => {
    const expired = await seedToken(testApp, user.id, { expiredTime: 1000 });
    const disabled = await seedToken(testApp, user.id, { status: TokenStatus.disabled });
    const exhausted = await seedToken(testApp, user.id, { remainQuota: 0 });
    expect((await chat(`Bearer ${expired.apiKey}`)).json().error).toMatchObject({ code: 'token_expired' });
    expect((await chat(`Bearer ${disabled.apiKey}`)).json().error.message).toContain('This token status is unavailable');
    const depleted = await chat(`Bearer ${exhausted.apiKey}`);
    expect(depleted.statusCode).toBe(401);
    expect(depleted.json().error.message).toContain("This token's quota is depleted");
    const unlimited = await seedToken(testApp, user.id, { remainQuota: 0, unlimited: true });
    expect((await chat(`Bearer ${unlimited.apiKey}`)).statusCode).toBe(200);
  });

  it('records a token found past its expiry as expired, as the console lists it', async () => {
    const lapsed = await seedToken(testApp, user.id, { expiredTime: 1000 });
    expect((await chat(`Bearer ${lapsed.apiKey}`)).json().error.code).toBe('token_expired');
    const status = () =>
      testApp.context.database.db
        .selectFrom('tokens')
        .select('status')
        .where('id', '=', lapsed.id)
        .executeTakeFirstOrThrow()
        .then((row) => row.status);
    await expect.poll(status).toBe(TokenStatus.expired);
    // A disabled token stays disabled: only enabled tokens lapse.
    const disabled = await seedToken(testApp, user.id, { expiredTime: 1000, status: TokenStatus.disabled });
    expect((await chat(`Bearer ${disabled.apiKey}`)).json().error.code).toBe('token_unavailable');
    const disabledStatus = await testApp.context.database.db.selectFrom('tokens').select('status').where('id', '=', disabled.id).executeTakeFirstOrThrow();
    expect(disabledStatus.status).toBe(TokenStatus.disabled);
  });

  it('applies the IP allow-list with addresses and CIDR ranges', async () => {
    const outside = await seedToken(testApp, user.id, { allowIps: '10.0.0.0/8\n192.168.1.7' });
    const inside = await seedToken(testApp, user.id, { allowIps: '10.0.0.0/8\n127.0.0.0/8' });
    expect((await chat(`Bearer ${outside.apiKey}`)).json().error).toMatchObject({ code: 'ip_not_allowed' });
    expect((await chat(`Bearer ${inside.apiKey}`)).statusCode).toBe(200);
  });

  it('enforces model limits and the token group within the user usable groups', async () => {
    const limited = await seedToken(testApp, user.id, { modelLimits: ['gpt-4o'] });
    expect((await chat(`Bearer ${limited.apiKey}`)).json().error).toMatchObject({ code: 'model_not_allowed' });
    const vip = await seedToken(testApp, user.id, { group: 'vip' });
    expect((await chat(`Bearer ${vip.apiKey}`, chatBody('gpt-4o'))).statusCode).toBe(200);
    const svip = await seedToken(testApp, user.id, { group: 'svip' });
    expect((await chat(`Bearer ${svip.apiKey}`)).json().error).toMatchObject({ code: 'group_not_allowed' });
    const noRoute = await chat(`Bearer ${vip.apiKey}`, chatBody('gpt-4.1'));
    expect(noRoute.statusCode).toBe(503);
    expect(noRoute.json().error.message).toContain('No available channel for model gpt-4.1 under group vip');
  });

  // Once three copies of this rule disagreed: the console let a user without a group pick `default`,
  // which the relay then refused; and `in` let a token claim a group named after an Object method.
  it('lets the console and the relay agree on the groups a user may use', async () => {
    await testApp.context.options.set('UserUsableGroups', JSON.stringify({ vip: 'vip分组' }));
    try {
      const groupless = await createTestUser(testApp, { quota: 1_000_000, group: '' });
      const pick = (group: string) =>
        testApp.app.inject({
          method: 'POST',
          url: '/api/token/',
          headers: groupless.headers,
          payload: { name: `pick-${group}`, group, remain_quota: 1000, expired_time: -1 },
        });
      const verdicts: Record<string, [boolean, number]> = {};
      for (const group of ['default', 'vip', 'svip', 'constructor']) {
        const relayed = await chat(`Bearer ${(await seedToken(testApp, groupless.id, { group })).apiKey}`);
        verdicts[group] = [(await pick(group)).json().success as boolean, relayed.statusCode];
      }
      expect(verdicts).toEqual({ default: [true, 200], vip: [true, 200], svip: [false, 403], constructor: [false, 403] });
    } finally {
      await testApp.context.options.set('UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'vip分组' }));
    }
  });

  it('refuses banned users at once when the change bus says so', async () => {
    const banned = await createTestUser(testApp, { quota: 1_000_000 });
    const token = await seedToken(testApp, banned.id);
    expect((await chat(`Bearer ${token.apiKey}`)).statusCode).toBe(200);
    await testApp.context.database.db.updateTable('users').set({ status: UserStatus.disabled }).where('id', '=', banned.id).execute();
    await testApp.context.bus.publish(changeTopics.users, String(banned.id));
    await testApp.app.relay.users.reload(banned.id);
    expect((await chat(`Bearer ${token.apiKey}`)).json().error).toMatchObject({ code: 'user_banned' });
  });

  it('lets administrators pin a channel with -<id> and refuses it to others', async () => {
    const common = await seedToken(testApp, user.id);
    expect((await chat(`Bearer ${common.apiKey}-${secondChannel}`)).statusCode).toBe(403);
    const admin = await createTestUser(testApp, { role: Role.admin, quota: 1_000_000 });
    const adminToken = await seedToken(testApp, admin.id);
    const before = fake.requestsFor('second-upstream').length;
    expect((await chat(`Bearer ${adminToken.apiKey}-${secondChannel}`)).statusCode).toBe(200);
    expect(fake.requestsFor('second-upstream').length).toBe(before + 1);
    expect(firstChannel).toBeGreaterThan(0);
  });

  it('refuses a user without balance before calling the upstream', async () => {
    const poor = await createTestUser(testApp, { quota: 0 });
    const token = await seedToken(testApp, poor.id);
    const answer = await chat(`Bearer ${token.apiKey}`);
    expect(answer.statusCode).toBe(403);
    expect(answer.json().error.code).toBe('insufficient_user_quota');
  });

  it('checks sensitive words in prompts when enabled', async () => {
    const token = await seedToken(testApp, user.id);
    await testApp.context.options.set('CheckSensitiveEnabled', 'true');
    const refused = await chat(`Bearer ${token.apiKey}`, chatBody('gpt-4o-mini', 'say test_sensitive please'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('sensitive_words_detected');
    await testApp.context.options.set('StopOnSensitiveEnabled', 'false');
    expect((await chat(`Bearer ${token.apiKey}`, chatBody('gpt-4o-mini', 'say test_sensitive please'))).statusCode).toBe(200);
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain('say ************** please');
    await testApp.context.options.set('CheckSensitiveEnabled', 'false');
    await testApp.context.options.set('StopOnSensitiveEnabled', 'true');
  });

  it('checks sensitive words in streamed completions, also across chunks, when enabled', async () => {
    const token = await seedToken(testApp, user.id);
    const options = testApp.context.options;
    await options.set('CheckSensitiveEnabled', 'true');
    await options.set('CheckSensitiveOnCompletionEnabled', 'true');
    // The fake streams "Hello", " from", " the", " fake", " upstream", "." as separate chunks.
    await options.set('SensitiveWords', 'the fake\nupstream');
    const streamed = () => chat(`Bearer ${token.apiKey}`, { ...chatBody('gpt-4o-mini', 'Hi'), stream: true });

    const stopped = await streamed();
    expect(stopped.statusCode).toBe(200);
    expect(stopped.body).toContain('"content":" the"');
    expect(stopped.body).not.toContain('"content":" fake"');
    expect(
      stopped.body.endsWith(
        'data: {"error":{"message":"Sensitive words detected","type":"new_api_error","code":"sensitive_words_detected"}}\n\ndata: [DONE]\n\n',
      ),
    ).toBe(true);
    await flushLedger(testApp);
    const log = await testApp.context.logDatabase.db
      .selectFrom('logs')
      .select(['completion_tokens', 'other'])
      .where('token_id', '=', token.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(log.other ?? '{}').stream_status).toBe('sensitive');
    expect(log.completion_tokens).toBeGreaterThan(0);

    await options.set('StopOnSensitiveEnabled', 'false');
    const masked = await streamed();
    expect(masked.body).toContain('"content":" ********"');
    expect(masked.body).not.toContain('upstream"');
    expect(masked.body.trimEnd().endsWith('data: [DONE]')).toBe(true);

    await options.set('CheckSensitiveOnCompletionEnabled', 'false');
    expect((await streamed()).body).toContain('"content":" upstream"');
    await options.set('CheckSensitiveEnabled', 'false');
    await options.set('StopOnSensitiveEnabled', 'true');
    await options.set('SensitiveWords', 'test_sensitive');
  });

  it('refuses a whole completion with sensitive words in OpenAI error format, charging what the upstream produced', async () => {
    const token = await seedToken(testApp, user.id);
    const options = testApp.context.options;
    await options.set('CheckSensitiveEnabled', 'true');
    await options.set('CheckSensitiveOnCompletionEnabled', 'true');
    await options.set('SensitiveWords', 'fake upstream');
    const refused = await chat(`Bearer ${token.apiKey}`, chatBody('gpt-4o-mini', 'Hi'));
    await options.set('CheckSensitiveOnCompletionEnabled', 'false');
    await options.set('CheckSensitiveEnabled', 'false');
    await options.set('SensitiveWords', 'test_sensitive');

    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'sensitive_words_detected', type: 'new_api_error' });
    expect(refused.json().error.message).toMatch(/^Sensitive words detected \(request id: \w+\)$/);
    expect(refused.body).not.toContain('Hello from');
    const state = await ledgerState(testApp, { tokenId: token.id, userId: user.id, channelIds: [] });
    // gpt-4o-mini: (12 + 6 × 4) × 0.075 = 2.7 → 3, the fake's reported usage.
    expect(state.logs).toHaveLength(1);
    expect(state.logs[0]).toMatchObject({ quota: 3, prompt_tokens: 12, completion_tokens: 6 });
    expect(JSON.parse(state.logs[0]?.other ?? '{}').end_reason).toBe('sensitive');
    expect(state.token.used_quota).toBe(3);
  });

  it('shows a key balance on the legacy billing endpoints', async () => {
    const token = await seedToken(testApp, user.id, { remainQuota: 1_000_000 });
    await chat(`Bearer ${token.apiKey}`);
    const subscription = await testApp.app.inject({
      method: 'GET',
      url: '/v1/dashboard/billing/subscription',
      headers: { authorization: `Bearer ${token.apiKey}` },
    });
    expect(subscription.json()).toMatchObject({ object: 'billing_subscription', hard_limit_usd: 2 });
    const usage = await testApp.app.inject({ method: 'GET', url: '/dashboard/billing/usage', headers: { authorization: `Bearer ${token.apiKey}` } });
    expect(usage.json().total_usage).toBeGreaterThan(0);
  });

  it('serves the playground to logged-in users in their chosen usable group', async () => {
    const player = await createTestUser(testApp, { quota: 1_000_000 });
    const answer = await testApp.app.inject({
      method: 'POST',
      url: '/pg/chat/completions',
      headers: { ...player.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ ...chatBody('gpt-4o'), group: 'vip' }),
    });
    expect(answer.statusCode).toBe(200);
    expect(fake.requests.at(-1)?.body).not.toHaveProperty('group');
    expect(fake.requests.at(-1)?.key).toBe('second-upstream');
    const denied = await testApp.app.inject({
      method: 'POST',
      url: '/pg/chat/completions',
      headers: { ...player.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ ...chatBody(), group: 'svip' }),
    });
    expect(denied.statusCode).toBe(403);
    const anonymous = await testApp.app.inject({
      method: 'POST',
      url: '/pg/chat/completions',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(chatBody()),
    });
    expect(anonymous.statusCode).toBe(401);
    await flushLedger(testApp);
    const log = await testApp.context.logDatabase.db.selectFrom('logs').selectAll().where('user_id', '=', player.id).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ token_name: 'playground-vip', group: 'vip', token_id: 0 });
    expect(JSON.parse(log.other ?? '{}').request_path).toBe('/pg/chat/completions');
    const row = await testApp.context.database.db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', player.id).executeTakeFirstOrThrow();
    expect(row.used_quota).toBe(log.quota);
    expect(row.quota).toBe(1_000_000 - log.quota);
  });
});
