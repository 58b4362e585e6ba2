import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { startNativeRelay, type NativeRelay } from '../../providers/claude/testing/native-relay.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import { eventsOf, recordedEvents, recordedJson, recordedText, startRecordedUpstream, type RecordedUpstream } from './testing/recorded-answers.ts';

/** The official Anthropic client pointed at the app, without its own retries. */
const anthropicClient = (baseUrl: string, apiKey: string) => new Anthropic({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 20_000 });

/** Ratios set for this suite, so each charge below is worked out by hand from the recorded usage. */
const modelRatio = { 'claude-sonnet-4-20250514': 1.5, 'claude-sonnet-4-5-20250929': 1.5, 'claude-opus-4-6': 2.5, 'claude-opus-4-8': 2.5 };
const question = { max_tokens: 1024, messages: [{ role: 'user' as const, content: 'What happened in tech today?' }] };
const webSearchTool = { type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: 3 };

describe.each(testDatabases())('Anthropic callers on Claude channels get the vendor answer as sent, on $dialect', (database) => {
  let relay: NativeRelay;
  let claude: RecordedUpstream;
  let channelId: number;

  beforeAll(async () => {
    claude = await startRecordedUpstream('anthropic');
    relay = await startNativeRelay(database);
    await relay.testApp.context.options.set('ModelRatio', JSON.stringify(modelRatio));
    channelId = await relay.channel({ type: 14, key: 'claude-recorded', baseUrl: claude.url, models: Object.keys(modelRatio) });
  });
  afterAll(async () => {
    await relay.close();
    await claude.close();
  });

  it('sends a recorded web search answer byte for byte (server_tool_use, web_search_tool_result, citations) and bills its searches', async () => {
    claude.play('anthropic-web-search-tool.1');
    const token = await relay.token();
    const client = anthropicClient(relay.baseUrl, token.apiKey);
    const response = await client.messages.create({ model: 'claude-sonnet-4-20250514', ...question, tools: [webSearchTool] }).asResponse();
    expect(await response.text()).toBe(recordedText('anthropic-web-search-tool.1.json'));
    const message = await client.messages.create({ model: 'claude-sonnet-4-20250514', ...question, tools: [webSearchTool] });
    expect(message.content.map((block) => block.type)).toEqual(
      (recordedJson('anthropic-web-search-tool.1.json').content as { type: string }[]).map((block) => block.type),
    );
    const citations = message.content.flatMap((block) => (block.type === 'text' ? (block.citations ?? []) : []));
    expect(citations.length).toBeGreaterThan(0);
    // The upstream got the caller's server tool as written.
    expect(claude.requests.at(-1)?.body?.tools).toEqual([webSearchTool]);

    // Recorded usage: 27,118 in, 600 out, 2 web searches. (27,118 + 600 × 5) × 1.5 = 45,177; 2 searches
    // at US$10 per 1,000 = US$0.02 = 10,000 quota. Twice.
    const state = await token.state([channelId]);
    expect(state.logs).toHaveLength(2);
    for (const log of state.logs) {
      expect(log).toMatchObject({ quota: 55_177, prompt_tokens: 27_118, completion_tokens: 600, channel_id: channelId });
      expect(JSON.parse(log.other ?? '{}')).toMatchObject({ tool_surcharges: { web_search: { calls: 2, price_per_thousand: 10 } } });
    }
    expect(state.token.remain_quota).toBe(10_000_000 - 2 * 55_177);
  });

  it('streams a recorded web search answer with the same events, which the SDK assembles into the whole message', async () => {
    claude.play('anthropic-web-search-tool.1');
    const token = await relay.token();
    const client = anthropicClient(relay.baseUrl, token.apiKey);
    const raw = await client.messages.create({ model: 'claude-sonnet-4-20250514', ...question, tools: [webSearchTool], stream: true }).asResponse();
    const recorded = recordedEvents('anthropic-web-search-tool.1.chunks.txt');
    expect(eventsOf(await raw.text())).toEqual(recorded);

    const stream = client.messages.stream({ model: 'claude-sonnet-4-20250514', ...question, tools: [webSearchTool] });
    const final = await stream.finalMessage();
    const starts = recorded.flatMap((event) => {
      const data = event as { type: string; content_block?: { type: string } };
      return data.type === 'content_block_start' && data.content_block ? [data.content_block.type] : [];
    });
    expect(final.content.map((block) => block.type)).toEqual(starts);
    const citations = final.content.flatMap((block) => (block.type === 'text' ? (block.citations ?? []) : []));
    expect(citations).toHaveLength(14);
    expect(final.usage).toMatchObject({ input_tokens: 15_665, output_tokens: 795, server_tool_use: { web_search_requests: 1 } });

    // message_delta's usage is the final one: 15,665 in, 795 out, 1 search. (15,665 + 3,975) × 1.5 = 29,460 + 5,000.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens, Number(log.is_stream)])).toEqual([
      [34_460, 15_665, 795, 1],
      [34_460, 15_665, 795, 1],
    ]);
  });

  it.each([
    ['anthropic-mcp.1', 'claude-sonnet-4-5-20250929', ['mcp_tool_use', 'mcp_tool_result', 'text'], (1250 + 88 * 5) * 1.5],
    ['anthropic-web-fetch-tool.1', 'claude-sonnet-4-20250514', ['text', 'server_tool_use', 'web_fetch_tool_result', 'text'], (4234 + 462 * 5) * 1.5],
    ['anthropic-compaction.1', 'claude-opus-4-6', ['compaction', 'text'], (682 + 60_385 + (1320 + 592) * 5) * 2.5],
    ['anthropic-fallback', 'claude-opus-4-8', ['fallback', 'text'], (412 + 264 * 5) * 2.5],
  ])('passes %s through as recorded and bills its usage', async (fixture, model, blocks, quota) => {
    claude.play(fixture);
    const token = await relay.token();
    const response = await anthropicClient(relay.baseUrl, token.apiKey)
      .messages.create({ model, ...question })
      .asResponse();
    const text = await response.text();
    expect(text).toBe(recordedText(`${fixture}.json`));
    expect((JSON.parse(text) as { content: { type: string }[] }).content.map((block) => block.type)).toEqual(blocks);
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => log.quota)).toEqual([Math.round(quota)]);
  });

  it('renames the model back to what the caller asked for when the channel maps it, in the JSON and in message_start', async () => {
    const mapped = await relay.channel({
      type: 14,
      key: 'claude-mapped',
      baseUrl: claude.url,
      models: ['claude-latest'],
      modelMapping: { 'claude-latest': 'claude-sonnet-4-5-20250929' },
    });
    await relay.testApp.context.options.set('ModelRatio', JSON.stringify({ ...modelRatio, 'claude-latest': 1.5 }));
    claude.play('anthropic-mcp.1');
    const token = await relay.token();
    const client = anthropicClient(relay.baseUrl, token.apiKey);
    const message = await client.messages.create({ model: 'claude-latest', ...question });
    expect(claude.requests.at(-1)?.body?.model).toBe('claude-sonnet-4-5-20250929');
    expect(message).toEqual({ ...recordedJson('anthropic-mcp.1.json'), model: 'claude-latest' });
    const stream = client.messages.stream({ model: 'claude-latest', ...question });
    const final = await stream.finalMessage();
    expect(final.model).toBe('claude-latest');
    expect(final.content.map((block) => block.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
    const state = await token.state([mapped]);
    expect(state.logs.map((log) => [log.channel_id, log.model_name])).toEqual([
      [mapped, 'claude-latest'],
      [mapped, 'claude-latest'],
    ]);
  });

  it('an OpenAI caller on the pivot gets the web fetch answer converted, not an empty success, billed from its usage', async () => {
    claude.play('anthropic-web-fetch-tool.1');
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'claude-sonnet-4-20250514',
      messages: [{ role: 'user', content: 'Summarise the page' }],
    });
    const recorded = recordedJson('anthropic-web-fetch-tool.1.json').content as { type: string; text?: string }[];
    expect(answer.choices[0]?.message.content).toBe(recorded.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''));
    expect(answer.usage).toMatchObject({ prompt_tokens: 4234, completion_tokens: 462 });
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([[Math.round((4234 + 462 * 5) * 1.5), 4234, 462]]);
  });
});
