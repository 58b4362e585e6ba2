import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelPricing } from '../../../domain/billing/pricing.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { startFakeClaude } from '../providers/claude/testing/fake-claude.ts';
import type { FakeServer } from '../providers/claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../providers/claude/testing/native-relay.ts';
import { openaiClient } from '../testing/relay-seed.ts';
import type { RelayCaller } from './caller-auth.ts';
import { consumeLogEntry, type ConsumeFacts } from './consume-log.ts';

const pricing: ModelPricing = {
  usePrice: false,
  modelPrice: -1,
  modelRatio: 1,
  completionRatio: 1,
  cacheRatio: 1,
  cacheCreationRatio: 1.25,
  cacheCreation1hRatio: 2,
  audioRatio: 1,
  audioCompletionRatio: 1,
  groupRatio: 1,
  userGroupRatio: -1,
  webSearchPrice: 10,
};
const facts: ConsumeFacts = {
  caller: { token: undefined, user: { id: 3, username: 'ann' }, usingGroup: 'default', tokenName: 'key', pinnedChannelId: undefined } as unknown as RelayCaller,
  model: 'gpt-4o',
  upstreamModel: 'gpt-4o',
  pricing,
  usage: { promptTokens: 10, completionTokens: 2 },
  quota: 12,
  channelId: 5,
  triedChannels: [5],
  stream: false,
  startedAt: 0,
  finishedAt: 1000,
  firstResponseMs: 40,
  requestId: 'req-1',
  requestPath: '/v1/messages',
  localCount: false,
  endReason: 'complete',
  warnings: [],
  createdAt: 1,
};
const otherOf = (changes: Partial<ConsumeFacts>) => JSON.parse(consumeLogEntry({ ...facts, ...changes }).other ?? '{}') as Record<string, unknown>;

describe('the consume log entry', () => {
  it('records provider warnings only when there are some', () => {
    expect(otherOf({})).not.toHaveProperty('warnings');
    expect(otherOf({ warnings: ['seed ignored'] }).warnings).toEqual(['seed ignored']);
  });

  it('says why an answer ended early: stream_status for streams, end_reason for whole answers', () => {
    expect(otherOf({ stream: true, endReason: 'client_gone' })).toMatchObject({ stream_status: 'client_gone' });
    expect(otherOf({ endReason: 'client_gone', firstResponseMs: undefined })).toMatchObject({ end_reason: 'client_gone' });
    expect(otherOf({ firstResponseMs: undefined })).not.toHaveProperty('frt');
    expect(otherOf({})).toMatchObject({ frt: 40, request_path: '/v1/messages' });
    expect(Object.keys(otherOf({ stream: true, endReason: 'done' }))).not.toContain('stream_status');
  });

  it('keeps the duration in milliseconds beside the whole seconds of use_time', () => {
    const entry = consumeLogEntry({ ...facts, startedAt: 1_000, finishedAt: 1_237.4 });
    expect(entry.use_time).toBe(0);
    expect(JSON.parse(entry.other ?? '{}')).toMatchObject({ use_time_ms: 237 });
  });
});

describe.each(testDatabases())('provider warnings in the consume log on $dialect', (database) => {
  let relay: NativeRelay;
  let claude: FakeServer;

  beforeAll(async () => {
    claude = await startFakeClaude();
    relay = await startNativeRelay(database);
  });
  afterAll(async () => {
    await relay.close();
    await claude.close();
  });

  it('keeps what the Claude converter dropped in other.warnings', async () => {
    const model = 'claude-sonnet-4-20250514';
    const channelId = await relay.channel({ type: 14, key: 'claude-warnings', baseUrl: claude.url, models: [model] });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    // Claude has no presence penalty and no seed: the converter drops both and says so.
    await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hello' }], presence_penalty: 0.5, seed: 42 });
    await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hello' }] });

    const state = await token.state([channelId]);
    const others = state.logs.map((log) => JSON.parse(log.other ?? '{}') as Record<string, unknown>);
    expect(others[0]).toMatchObject({ warnings: ['presence_penalty ignored', 'seed ignored'], request_path: '/v1/chat/completions' });
    expect(others[1]).not.toHaveProperty('warnings');
    expect(claude.requests.at(-2)?.body).not.toHaveProperty('seed');
  });
});
