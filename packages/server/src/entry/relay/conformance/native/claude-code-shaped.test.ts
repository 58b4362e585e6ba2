import Anthropic from '@anthropic-ai/sdk';
import { parseSseText } from '@switchboard/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { fakeBedrockAccessKeys, startFakeBedrock } from '../../providers/aws/testing/fake-bedrock.ts';
import { startFakeClaude } from '../../providers/claude/testing/fake-claude.ts';
import type { FakeServer } from '../../providers/claude/testing/fake-server.ts';
import { readJsonFixture, readStreamFixture } from '../../providers/claude/testing/fixtures.ts';
import { startNativeRelay, type NativeRelay } from '../../providers/claude/testing/native-relay.ts';
import { startFakeVertex, type FakeVertex } from '../../providers/vertex/testing/fake-vertex.ts';
import { eventsOf } from './testing/recorded-answers.ts';

const claudeFixtures = new URL('../../providers/claude/__fixtures__/', import.meta.url);
const model = 'claude-sonnet-4-20250514';
const beta = 'interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14';

/**
 * What Claude Code sends on a turn with tools: cached system prompt and tools (`cache_control`, one
 * with a 1-hour TTL), thinking, the web search server tool next to client tools, its user id, and
 * beta features by header.
 */
const claudeCodeTurn = {
  model,
  max_tokens: 32_000,
  system: [
    { type: 'text' as const, text: "You are Claude Code, Anthropic's official CLI for Claude." },
    { type: 'text' as const, text: 'Project rules…', cache_control: { type: 'ephemeral' as const, ttl: '1h' as const } },
  ],
  thinking: { type: 'enabled' as const, budget_tokens: 31_999 },
  tools: [
    {
      name: 'Read',
      description: 'Reads a file',
      input_schema: { type: 'object' as const, properties: { file_path: { type: 'string' } }, required: ['file_path'] },
    },
    {
      name: 'get_weather',
      description: 'Weather now',
      input_schema: { type: 'object' as const, properties: { location: { type: 'string' } } },
      cache_control: { type: 'ephemeral' as const },
    },
    { type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: 5 },
  ],
  metadata: { user_id: 'user_abc_account__session_123' },
  messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Weather in San Francisco?', cache_control: { type: 'ephemeral' as const } }] }],
};

/** The recorded tool-use turn: 472 plain prompt tokens, 3,000 cache reads, 1,200 cache writes, 89 out. (472 + 300 + 1,500 + 445) × 1.5 = 4,075.5. */
const toolUseCharge = 4076;
const recordedAnswer = () => readJsonFixture(claudeFixtures, 'messages-tool-use.json');
const recordedEvents = () =>
  parseSseText(readStreamFixture(claudeFixtures, 'messages-tool-use.chunks.txt')).map((event) => JSON.parse(event.data) as { type: string });

describe.each(testDatabases())('a Claude Code turn through /v1/messages to Claude, Bedrock and Vertex on $dialect', (database) => {
  let relay: NativeRelay;
  let claude: FakeServer;
  let bedrock: FakeServer;
  let vertex: FakeVertex;
  const channels: Record<string, { id: number; upstream: () => FakeServer; sentBeta: (upstream: FakeServer) => unknown; pings: boolean }> = {};

  beforeAll(async () => {
    [claude, bedrock, vertex] = await Promise.all([startFakeClaude(), startFakeBedrock(), startFakeVertex()]);
    relay = await startNativeRelay(database);
    await relay.testApp.context.options.set('ModelRatio', JSON.stringify({ [model]: 1.5 }));
    await relay.testApp.context.options.set('RetryTimes', '0');
    const header = (upstream: FakeServer) => upstream.requests.at(-1)?.headers['anthropic-beta'];
    channels.claude = {
      id: await relay.channel({ type: 14, key: 'claude-code', baseUrl: claude.url, models: [model] }),
      upstream: () => claude,
      sentBeta: header,
      pings: true,
    };
    channels.bedrock = {
      id: await relay.channel({ type: 33, key: `${fakeBedrockAccessKeys.good}|fake-secret|us-west-2`, baseUrl: bedrock.url, models: [model] }),
      upstream: () => bedrock,
      // Bedrock takes the beta flags in the body.
      sentBeta: (upstream) => (upstream.requests.at(-1)?.body?.anthropic_beta as string[] | undefined)?.join(','),
      pings: false,
    };
    channels.vertex = {
      id: await relay.channel({ type: 41, key: vertex.serviceAccount(), baseUrl: vertex.url, models: [model] }),
      upstream: () => vertex,
      sentBeta: header,
      pings: true,
    };
  });
  afterAll(async () => {
    await relay.close();
    await Promise.all([claude.close(), bedrock.close(), vertex.close()]);
  });

  /** Only the channel under test serves the model. */
  const only = async (name: string) => {
    const { db } = relay.testApp.context.database;
    for (const [other, channel] of Object.entries(channels))
      await db
        .updateTable('channels')
        .set({ status: other === name ? 1 : 2 })
        .where('id', '=', channel.id)
        .execute();
    await relay.testApp.app.relay.channels.reload();
  };

  it.each(['claude', 'bedrock', 'vertex'])(
    'round-trips on %s: the recorded answer whole and streamed, the request as written, billed exactly',
    async (name) => {
      await only(name);
      const channel = channels[name];
      if (!channel) throw new Error(name);
      const token = await relay.token();
      const client = new Anthropic({ apiKey: token.apiKey, baseURL: relay.baseUrl, maxRetries: 0, timeout: 20_000 });

      const message = await client.messages.create(claudeCodeTurn, { headers: { 'anthropic-beta': beta } });
      expect(message).toEqual(recordedAnswer());
      const sent = channel.upstream().requests.at(-1)?.body;
      const { model: _model, ...asWritten } = claudeCodeTurn;
      expect(sent).toMatchObject(asWritten);
      expect(channel.sentBeta(channel.upstream())).toBe(beta);

      const raw = await client.messages.create({ ...claudeCodeTurn, stream: true }, { headers: { 'anthropic-beta': beta } }).asResponse();
      const expected = recordedEvents().filter((event) => channel.pings || event.type !== 'ping');
      expect(eventsOf(await raw.text())).toEqual(expected);

      const final = await client.messages.stream(claudeCodeTurn, { headers: { 'anthropic-beta': beta } }).finalMessage();
      // The recorded stream is its own turn: the SDK assembles its blocks, signature and usage.
      expect(final.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
      expect(final.content[0]).toMatchObject({ signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' });
      expect(final.usage).toMatchObject({ input_tokens: 472, cache_read_input_tokens: 3000, cache_creation_input_tokens: 1200, output_tokens: 89 });

      const state = await token.state([channel.id]);
      expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens, log.channel_id])).toEqual([
        [toolUseCharge, 4672, 89, channel.id],
        [toolUseCharge, 4672, 89, channel.id],
        [toolUseCharge, 4672, 89, channel.id],
      ]);
      expect(state.token.remain_quota).toBe(10_000_000 - 3 * toolUseCharge);
    },
  );

  it('bills 1-hour cache writes at their own ratio, read from the native answer', async () => {
    await only('claude');
    const token = await relay.token();
    const client = new Anthropic({ apiKey: token.apiKey, baseURL: relay.baseUrl, maxRetries: 0, timeout: 20_000 });
    const { tools: _tools, ...withoutTools } = claudeCodeTurn;
    const final = await client.messages.stream(withoutTools).finalMessage();
    expect(final.usage).toMatchObject({ cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 1500 } });
    // 100 plain + 500 × 1.25 + 1,500 × 2 + 51 × 5 = 3,980; × 1.5 = 5,970.
    const state = await token.state([channels.claude?.id ?? 0]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([[5970, 2100, 51]]);
    expect(JSON.parse(state.logs[0]?.other ?? '{}')).toMatchObject({ cache_creation_tokens: 2000, cache_creation_tokens_1h: 1500, cache_creation_ratio_1h: 2 });
  });
});
