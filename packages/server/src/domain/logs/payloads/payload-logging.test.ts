import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Role } from '@switchboard/contracts';
import { FakeOpenAIUpstream } from '../../../entry/relay/testing/fake-openai-upstream.ts';
import { flushLedger, seedChannel } from '../../../entry/relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { createTestAppWithLogDatabase } from '../../../testing/test-app-with-log-database.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { tokenPayloadMessages } from '../../../entry/api/token/token-payload-field.ts';
import { PayloadLogRepository } from './payload-log.repository.ts';
import { payloadMessages } from './payload-log.service.ts';
import { applyPayloadRetention } from './payload-retention.ts';

const model = 'gpt-4o-mini';
const maxBytes = 2048;
const callerSecret = `sk-${'S3cr3t'.repeat(8)}`;
const answerText = 'Hello from the fake upstream.';

interface PayloadAnswer {
  success: boolean;
  message: string;
  data: {
    request_id: string;
    is_stream: boolean;
    request_body: string;
    response_body: string;
    request_truncated: boolean;
    response_truncated: boolean;
  } | null;
}

function parsed(text: string): Record<string, unknown> {
  const result = safeParseJson(text);
  if (!result.ok) throw new Error(`not JSON: ${text.slice(0, 80)}`);
  return result.value as Record<string, unknown>;
}

/** A relay world: a fake upstream, a channel, an administrator and a common user with tokens made through the console API. */
async function relayWorld(testApp: TestApp, fake: FakeOpenAIUpstream) {
  await seedChannel(testApp, { key: 'payload-upstream', baseUrl: fake.baseUrl, models: [model] });
  const admin = await createTestUser(testApp, { role: Role.admin, quota: 50_000_000 });
  const user = await createTestUser(testApp, { quota: 50_000_000 });
  return { admin, user };
}

async function createToken(testApp: TestApp, owner: TestUser, fields: Record<string, unknown>) {
  const answer = await testApp.app.inject({
    method: 'POST',
    url: '/api/token/',
    headers: owner.headers,
    payload: { name: 'payload', remain_quota: 5_000_000, ...fields },
  });
  const body = answer.json() as { success: boolean; message: string; data: Array<{ id: number; key: string; log_payload: boolean }> };
  const token = body.data?.[0];
  if (token) await testApp.app.relay.tokens.reload(token.id);
  return { body, token };
}

function relay(testApp: TestApp, key: string, body: object) {
  return testApp.app.inject({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

/** The consume log row of a request id, once the ledger wrote it. */
async function logIdOf(testApp: TestApp, requestId: string): Promise<number> {
  await flushLedger(testApp);
  const row = await testApp.context.logDatabase.db.selectFrom('logs').select('id').where('request_id', '=', requestId).executeTakeFirstOrThrow();
  return row.id;
}

/** Flushes the payload queue until the request's row is there (it is queued once the answer is out). */
async function storedPayloadCount(testApp: TestApp, requestId: string, expected: number): Promise<void> {
  await vi.waitFor(
    async () => {
      await testApp.app.relay.payloads.flush();
      const rows = await testApp.context.logDatabase.db.selectFrom('switchboard_log_payloads').select('id').where('request_id', '=', requestId).execute();
      expect(rows).toHaveLength(expected);
    },
    { timeout: 5000, interval: 20 },
  );
}

describe.each(testDatabases())('payload logging through the relay on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let admin: TestUser;
  let user: TestUser;

  const payloadOf = async (logId: number, as: TestUser = admin) =>
    (await testApp.app.inject({ method: 'GET', url: `/api/log/${logId}/payload`, headers: as.headers })).json() as PayloadAnswer;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    ({ admin, user } = await relayWorld(testApp, fake));
    await testApp.context.options.set('LogPayloadMaxBytes', String(maxBytes));
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it('lets only administrators turn a token switch on, and changes nothing when refused', async () => {
    const refused = await createToken(testApp, user, { log_payload: true });
    expect(refused.body).toMatchObject({ success: false, message: tokenPayloadMessages.administratorsOnly.zh });
    const tokens = await testApp.context.database.db.selectFrom('tokens').select('id').where('user_id', '=', user.id).execute();
    expect(tokens).toHaveLength(0);
    const off = await createToken(testApp, user, { log_payload: false });
    expect(off.token?.log_payload).toBe(false);
    const on = await createToken(testApp, admin, { log_payload: true });
    expect(on.token?.log_payload).toBe(true);
  });

  it('stores the redacted, capped bodies of a token whose switch is on, and the admin route answers them', async () => {
    const { token } = await createToken(testApp, admin, { log_payload: true });
    if (!token) throw new Error('token not created');
    const body = {
      model,
      api_key: callerSecret,
      metadata: { Authorization: 'Bearer abc.def.ghi', note: `paste of ${callerSecret}` },
      messages: [{ role: 'user', content: `Hello ${'long prompt '.repeat(400)}` }],
    };
    const answer = await relay(testApp, token.key, body);
    expect(answer.statusCode).toBe(200);
    const requestId = String(answer.headers['x-oneapi-request-id']);
    await storedPayloadCount(testApp, requestId, 1);

    const payload = (await payloadOf(await logIdOf(testApp, requestId))).data;
    expect(payload).toMatchObject({ request_id: requestId, is_stream: false, request_truncated: true, response_truncated: false });
    expect(Buffer.byteLength(payload?.request_body ?? '')).toBeLessThanOrEqual(maxBytes);
    expect(payload?.request_body).toContain('"api_key":"[redacted]"');
    expect(payload?.request_body).toContain('"Authorization":"[redacted]"');
    expect(payload?.request_body).toContain('paste of [redacted]');
    expect(payload?.request_body).not.toContain('S3cr3t');
    expect(parsed(payload?.response_body ?? '')).toMatchObject({ object: 'chat.completion', choices: [{ message: { content: answerText } }] });
  });

  it('refuses the payload route to a common user, and answers an error for an unknown log', async () => {
    const refused = await testApp.app.inject({ method: 'GET', url: '/api/log/1/payload', headers: user.headers });
    expect(refused.json()).toMatchObject({ success: false });
    expect(await payloadOf(987_654_321)).toMatchObject({ success: false, message: payloadMessages.logNotFound.zh });
  });

  it('stores nothing for a token whose switch is off while the global option is off', async () => {
    const { token } = await createToken(testApp, admin, {});
    if (!token) throw new Error('token not created');
    const answer = await relay(testApp, token.key, { model, messages: [{ role: 'user', content: 'Hi' }] });
    expect(answer.statusCode).toBe(200);
    const requestId = String(answer.headers['x-oneapi-request-id']);
    const logId = await logIdOf(testApp, requestId);
    await testApp.app.relay.payloads.flush();
    expect(testApp.app.relay.payloads.queue.backlog).toBe(0);
    await storedPayloadCount(testApp, requestId, 0);
    expect(await payloadOf(logId)).toEqual({ success: true, message: '', data: null });
  });

  it('stores a streamed answer reassembled into one message', async () => {
    const { token } = await createToken(testApp, admin, { log_payload: true });
    if (!token) throw new Error('token not created');
    const answer = await relay(testApp, token.key, { model, stream: true, messages: [{ role: 'user', content: 'Stream please' }] });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('data: [DONE]');
    const requestId = String(answer.headers['x-oneapi-request-id']);
    await storedPayloadCount(testApp, requestId, 1);
    const payload = (await payloadOf(await logIdOf(testApp, requestId))).data;
    expect(payload).toMatchObject({ is_stream: true, request_truncated: false, response_truncated: false });
    expect(parsed(payload?.request_body ?? '')).toEqual({ model, stream: true, messages: [{ role: 'user', content: 'Stream please' }] });
    expect(parsed(payload?.response_body ?? '')).toMatchObject({
      object: 'chat.completion',
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: answerText }, finish_reason: 'stop' }],
    });
  });

  it('stores every request while the global option is on', async () => {
    const { token } = await createToken(testApp, user, {});
    if (!token) throw new Error('token not created');
    await testApp.context.options.set('LogPayloadEnabled', 'true');
    try {
      const answer = await relay(testApp, token.key, { model, messages: [{ role: 'user', content: 'Global' }] });
      await storedPayloadCount(testApp, String(answer.headers['x-oneapi-request-id']), 1);
    } finally {
      await testApp.context.options.set('LogPayloadEnabled', 'false');
    }
    const after = await relay(testApp, token.key, { model, messages: [{ role: 'user', content: 'Off again' }] });
    await logIdOf(testApp, String(after.headers['x-oneapi-request-id']));
    await storedPayloadCount(testApp, String(after.headers['x-oneapi-request-id']), 0);
  });

  it('purges payloads older than LogPayloadRetentionDays and keeps newer ones', async () => {
    const repository = new PayloadLogRepository(testApp.context.logDatabase);
    const now = testApp.context.clock.unixSeconds();
    const row = (requestId: string, createdAt: number) => ({
      request_id: requestId,
      user_id: admin.id,
      token_id: 0,
      created_at: createdAt,
      is_stream: 0,
      request_body: '{}',
      response_body: '{}',
      request_truncated: 0,
      response_truncated: 0,
    });
    await repository.insertMany([row('old-payload', now - 8 * 86_400), row('young-payload', now - 6 * 86_400)]);
    await testApp.context.options.set('LogPayloadRetentionDays', '7');
    expect(await applyPayloadRetention(testApp.context)).toBe(1);
    const left = await testApp.context.logDatabase.db
      .selectFrom('switchboard_log_payloads')
      .select('request_id')
      .where('request_id', 'in', ['old-payload', 'young-payload'])
      .execute();
    expect(left.map((entry) => entry.request_id)).toEqual(['young-payload']);
  });
});

describe('payload logging with a separate log database (LOG_SQL_DSN)', () => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;

  beforeAll(async () => {
    const [sqlite] = testDatabases();
    if (!sqlite) throw new Error('SQLite test database missing');
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestAppWithLogDatabase(sqlite, sqlite);
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it('writes payloads beside the logs, not in the main database', async () => {
    const { admin } = await relayWorld(testApp, fake);
    const { token } = await createToken(testApp, admin, { log_payload: true });
    if (!token) throw new Error('token not created');
    const answer = await relay(testApp, token.key, { model, messages: [{ role: 'user', content: 'Elsewhere' }] });
    await storedPayloadCount(testApp, String(answer.headers['x-oneapi-request-id']), 1);
    const mainTables = await testApp.context.database.db.introspection.getTables();
    expect(mainTables.some((table) => table.name === 'switchboard_log_payloads')).toBe(false);
  });
});
