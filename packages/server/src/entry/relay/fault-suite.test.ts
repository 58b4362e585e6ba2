import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import type { TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import type { FakeMode, FakeOpenAIUpstream } from './testing/fake-openai-upstream.ts';
import { openTieredFaultWorld, type TieredFaultWorld } from './testing/tiered-fault-cases.ts';

/**
 * Each case gets its own model, a failing primary channel (priority 10) and a healthy backup
 * (priority 0), so RetryTimes = 1 drops to the backup tier when the failure is retryable.
 */
describe.each(testDatabases())('relay fault suite on $dialect', (database) => {
  let world: TieredFaultWorld;
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let baseUrl: string;

  beforeAll(async () => {
    // A silent upstream is given up after one second (STREAMING_TIMEOUT).
    world = await openTieredFaultWorld(database, {
      env: { STREAMING_TIMEOUT: '1' },
      modelPrefix: 'fault-model',
      primaryPrefix: 'primary',
      options: { AutomaticDisableChannelEnabled: 'true' },
    });
    ({ testApp, fake, baseUrl } = world);
  });
  afterAll(() => world.close());

  const setUp = (mode: FakeMode, options?: { backup?: boolean }) => world.setUp(mode, options);

  const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'Hello' }] });

  it.each(['status-500', 'status-429', 'reset-before'] as const)('retries %s on the next tier, keeps the channel, charges the answer once', async (mode) => {
    const run = await setUp(mode);
    const answer = await run.client.chat.completions.create(ask(run.model));
    expect(answer.choices[0]?.message.content).toBe('Hello from the fake upstream.');
    expect(fake.requestsFor(run.primaryKey)).toHaveLength(1);
    expect(fake.requestsFor(run.backupKey)).toHaveLength(1);
    const state = await run.state();
    expect(state.logs).toHaveLength(1);
    // ratio 1, completion ratio 1: 12 + 6
    expect(state.logs[0]).toMatchObject({ quota: 18, channel_id: run.backup });
    expect(JSON.parse(state.logs[0]?.other ?? '{}').admin_info.use_channel).toEqual([run.primary, run.backup]);
    expect(state.token.remain_quota).toBe(1_000_000 - 18);
    expect(state.channels.find((channel) => channel.id === run.primary)?.status).toBe(ChannelStatus.enabled);
  });

  it('disables a channel whose key is rejected (401), masks the key, and never calls it again', async () => {
    const run = await setUp('status-401');
    const answer = await run.client.chat.completions.create(ask(run.model));
    expect(answer.choices[0]?.message.content).toBe('Hello from the fake upstream.');
    // The disable is written in the background; the next request already avoids the channel.
    await run.client.chat.completions.create(ask(run.model));
    expect(fake.requestsFor(run.primaryKey)).toHaveLength(1);
    await testApp.app.relay.health.settled();
    await testApp.app.relay.channels.reload();
    expect(testApp.app.relay.channels.get(run.primary)?.status).toBe(ChannelStatus.autoDisabled);
    const state = await run.state();
    const primary = state.channels.find((channel) => channel.id === run.primary);
    expect(primary?.status).toBe(ChannelStatus.autoDisabled);
    const info = JSON.parse(primary?.other_info ?? '{}');
    expect(info.status_reason).toContain('Incorrect API key provided');
    expect(info.status_reason).not.toContain(run.primaryKey);
    expect(typeof info.status_time).toBe('number');
    const abilities = await testApp.context.database.db.selectFrom('abilities').select('enabled').where('channel_id', '=', run.primary).execute();
    expect(abilities.every((ability) => !ability.enabled)).toBe(true);
    expect(state.logs).toHaveLength(2);
  });

  it('answers the last upstream error with secrets masked and refunds when no channel is left', async () => {
    const run = await setUp('status-401', { backup: false });
    const error = await run.client.chat.completions.create(ask(run.model)).then(
      () => ({ status: 200, message: '', code: '' }),
      (caught: unknown) => caught as { status: number; message: string; code: string },
    );
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect(error.message).not.toContain(run.primaryKey);
    expect(error.message).toContain('(request id: ');
    const state = await run.state();
    expect(state.logs).toHaveLength(0);
    expect(state.token.remain_quota).toBe(1_000_000);
    expect(state.token.used_quota).toBe(0);
  });

  it('does not retry a timeout (504), refunds, and keeps the channel', async () => {
    const run = await setUp('timeout');
    await expect(run.client.chat.completions.create(ask(run.model))).rejects.toMatchObject({ status: 504, code: 'upstream_timeout' });
    expect(fake.requestsFor(run.backupKey)).toHaveLength(0);
    const state = await run.state();
    expect(state.logs).toHaveLength(0);
    expect(state.token.remain_quota).toBe(1_000_000);
    expect(state.channels.every((channel) => channel.status === ChannelStatus.enabled)).toBe(true);
  });

  it('does not retry malformed JSON (502 bad_response_body) and refunds', async () => {
    const run = await setUp('malformed');
    await expect(run.client.chat.completions.create(ask(run.model))).rejects.toMatchObject({ status: 502, code: 'bad_response_body' });
    expect(fake.requestsFor(run.backupKey)).toHaveLength(0);
    const state = await run.state();
    expect(state.logs).toHaveLength(0);
    expect(state.token.remain_quota).toBe(1_000_000);
    // Not a channel fault: the channel stays in service.
    expect(state.channels.every((channel) => channel.status === ChannelStatus.enabled)).toBe(true);
  });

  it('gives up on a silent stream before any byte (504) and refunds', async () => {
    const run = await setUp('silent');
    await expect(run.client.chat.completions.create({ ...ask(run.model), stream: true })).rejects.toMatchObject({ status: 504, code: 'upstream_timeout' });
    // A timeout is not retried: the upstream may still be working on (and billing) the request.
    expect(fake.requestsFor(run.backupKey)).toHaveLength(0);
    const state = await run.state();
    expect(state.logs).toHaveLength(0);
    expect(state.token.remain_quota).toBe(1_000_000);
    // Not a channel fault: the channel stays in service.
    expect(state.channels.every((channel) => channel.status === ChannelStatus.enabled)).toBe(true);
  });

  it('ends a stream reset in mid-flight with an error event, then [DONE], and charges what was produced', async () => {
    const run = await setUp('reset-mid');
    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${run.token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...ask(run.model), stream: true }),
    });
    const text = await response.text();
    expect(text).toContain('"content":"Hello"');
    // The error event makes SDKs raise; [DONE] still closes the stream for OpenAI-format callers.
    expect(
      text.endsWith(
        'data: {"error":{"message":"The upstream stopped in the middle of the answer","type":"upstream_error","code":"stream_interrupted"}}\n\ndata: [DONE]\n\n',
      ),
    ).toBe(true);
    expect(text.match(/\[DONE\]/g)).toHaveLength(1);
    expect(fake.requestsFor(run.backupKey)).toHaveLength(0);
    const state = await run.state();
    expect(state.logs).toHaveLength(1);
    const log = state.logs[0];
    // "Hello from the" counted locally; the prompt counted locally too.
    expect(log?.completion_tokens).toBe(3);
    expect(log?.prompt_tokens).toBeGreaterThan(0);
    expect(log?.quota).toBe((log?.prompt_tokens ?? 0) + 3);
    expect(JSON.parse(log?.other ?? '{}')).toMatchObject({ stream_status: 'upstream_error', admin_info: { local_count_tokens: true } });
    expect(state.token.used_quota).toBe(log?.quota);
    // Not a channel fault: the channel stays in service.
    expect(state.channels.every((channel) => channel.status === ChannelStatus.enabled)).toBe(true);
  });

  it('counts a prompt that spells out special tokens as plain text when the upstream sends no usage', async () => {
    const run = await setUp('no-usage', { backup: false });
    const stream = await run.client.chat.completions.create({
      model: run.model,
      messages: [{ role: 'user', content: 'Repeat <|endoftext|><|im_start|> after me' }],
      stream: true,
    });
    let answer = '';
    for await (const chunk of stream) answer += chunk.choices[0]?.delta.content ?? '';
    expect(answer).toBe('Hello from the fake upstream.');
    const state = await run.state();
    expect(state.logs).toHaveLength(1);
    const log = state.logs[0];
    // Both counted locally; the prompt's "<|endoftext|>" is ordinary text, not a reason to fail.
    expect(log?.completion_tokens).toBe(6);
    expect(log?.prompt_tokens).toBeGreaterThan(0);
    expect(log?.quota).toBe((log?.prompt_tokens ?? 0) + 6);
    expect(JSON.parse(log?.other ?? '{}')).toMatchObject({ admin_info: { local_count_tokens: true } });
    expect(state.token.used_quota).toBe(log?.quota);
  });

  it('stops a stream that goes silent in mid-flight and charges what was produced', async () => {
    const run = await setUp('hang-after');
    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${run.token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...ask(run.model), stream: true }),
    });
    const text = await response.text();
    expect(text.endsWith('"code":"stream_interrupted"}}\n\ndata: [DONE]\n\n')).toBe(true);
    await fake.waitForAbort();
    const state = await run.state();
    expect(state.logs[0]).toMatchObject({ completion_tokens: 3 });
    expect(JSON.parse(state.logs[0]?.other ?? '{}').stream_status).toBe('timeout');
  });

  it('maps status codes per channel before deciding', async () => {
    const run = await setUp('status-429');
    await testApp.context.database.db
      .updateTable('channels')
      .set({ status_code_mapping: JSON.stringify({ 429: 400 }) })
      .where('id', '=', run.primary)
      .execute();
    await testApp.app.relay.channels.reload();
    // 429 mapped to 400 is a caller error: not retried, answered as 400.
    await expect(run.client.chat.completions.create(ask(run.model))).rejects.toMatchObject({ status: 400 });
    expect(fake.requestsFor(run.backupKey)).toHaveLength(0);
  });
});
