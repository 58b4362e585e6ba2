import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { fakeClaudeKeys, startFakeClaude } from '../../providers/claude/testing/fake-claude.ts';
import type { FakeServer } from '../../providers/claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../../providers/claude/testing/native-relay.ts';
import { estimateTokens } from '../../pipeline/token-estimate.ts';
import { FakeOpenAIUpstream } from '../../testing/fake-openai-upstream.ts';
import { startFakeOpenAITools } from './testing/fake-openai-tools.ts';

const weatherTool = {
  name: 'get_weather',
  description: 'Weather now',
  input_schema: { type: 'object' as const, properties: { location: { type: 'string' } } },
};

/** The official Anthropic client pointed at the app, without its own retries. */
const anthropicClient = (baseUrl: string, apiKey: string) => new Anthropic({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 20_000 });

describe.each(testDatabases())('the official Anthropic client on /v1/messages on $dialect', (database) => {
  let relay: NativeRelay;
  let claude: FakeServer;
  let openai: FakeOpenAIUpstream;
  let openaiTools: FakeServer;

  beforeAll(async () => {
    claude = await startFakeClaude();
    openai = new FakeOpenAIUpstream();
    await openai.start();
    openaiTools = await startFakeOpenAITools();
    relay = await startNativeRelay(database);
  });
  afterAll(async () => {
    await relay.close();
    await claude.close();
    await openai.stop();
    await openaiTools.close();
  });

  it('gets a Claude channel answer back exactly: thinking with signature, tool use, cache usage, exact charge', async () => {
    const channelId = await relay.channel({ type: 14, key: 'claude-entry', baseUrl: claude.url, models: ['claude-sonnet-4-20250514'] });
    const token = await relay.token();
    const message = await anthropicClient(relay.baseUrl, token.apiKey).messages.create(
      {
        model: 'claude-sonnet-4-20250514',
        max_tokens: 1024,
        system: [{ type: 'text', text: 'Cached rules', cache_control: { type: 'ephemeral' } }],
        tools: [weatherTool],
        messages: [{ role: 'user', content: 'Weather in San Francisco?' }],
      },
      { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } },
    );
    expect(message.stop_reason).toBe('tool_use');
    expect(claude.requests.at(-1)?.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'The user wants the weather, so I call the tool.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
      { type: 'text', text: "I'll check the current weather in San Francisco." },
      { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { location: 'San Francisco, CA', unit: 'celsius' } },
    ]);
    expect(message.usage).toMatchObject({ input_tokens: 472, output_tokens: 89, cache_read_input_tokens: 3000, cache_creation_input_tokens: 1200 });
    // The upstream got the caller's prompt caching marks and tools untouched.
    expect(claude.requests.at(-1)?.body).toMatchObject({
      max_tokens: 1024,
      system: [{ type: 'text', text: 'Cached rules', cache_control: { type: 'ephemeral' } }],
      tools: [weatherTool],
    });
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: 4076, prompt_tokens: 4672, completion_tokens: 89, channel_id: channelId });
  });

  it('streams a Claude channel answer through the SDK stream helper', async () => {
    await relay.channel({ type: 14, key: 'claude-entry-stream', baseUrl: claude.url, models: ['claude-3-7-sonnet-20250219'] });
    const token = await relay.token();
    const stream = anthropicClient(relay.baseUrl, token.apiKey).messages.stream({
      model: 'claude-3-7-sonnet-20250219',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const final = await stream.finalMessage();
    expect(text).toBe('Hello!');
    expect(final.content).toEqual([{ type: 'text', text: 'Hello!' }]);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toMatchObject({ output_tokens: 15 });
  });

  it('announces the prompt tokens in message_start, where LangChain reads them: the upstream count, else the estimate', async () => {
    await relay.channel({ type: 14, key: 'claude-entry-announce', baseUrl: claude.url, models: ['claude-3-7-sonnet-20250219'] });
    await relay.channel({ type: 1, key: 'openai-entry-announce', baseUrl: openai.baseUrl, models: ['gpt-4o-mini'] });
    const token = await relay.token();
    const client = anthropicClient(relay.baseUrl, token.apiKey);
    const streamed = async (model: string) => {
      const stream = client.messages.stream({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Hello there, how are you?' }] });
      let announced: Anthropic.Usage | undefined;
      stream.on('streamEvent', (event) => {
        // A copy: the SDK goes on to update this object as the stream's message snapshot.
        if (event.type === 'message_start') announced = { ...event.message.usage };
      });
      const final = await stream.finalMessage();
      return { announced, final: final.usage };
    };
    // Claude's first frame has the count: message_start says it, and the final usage agrees.
    const fromClaude = await streamed('claude-3-7-sonnet-20250219');
    expect(fromClaude.announced).toMatchObject({ input_tokens: 25, output_tokens: 1 });
    expect(fromClaude.final.input_tokens).toBe(25);
    // OpenAI reports usage only at the end: message_start has the relay's prompt estimate, not 0.
    const fromOpenAI = await streamed('gpt-4o-mini');
    expect(fromOpenAI.announced).toMatchObject({ input_tokens: estimateTokens('Hello there, how are you?'), output_tokens: 0 });
    expect(fromOpenAI.announced?.input_tokens).toBeGreaterThan(0);
    expect(fromOpenAI.final.input_tokens).toBe(12);
  });

  it('gets answers from an OpenAI channel, streamed and not, charged exactly', async () => {
    const channelId = await relay.channel({ type: 1, key: 'openai-entry', baseUrl: openai.baseUrl, models: ['gpt-4o-mini'] });
    const token = await relay.token();
    const client = anthropicClient(relay.baseUrl, token.apiKey);
    const message = await client.messages.create({ model: 'gpt-4o-mini', max_tokens: 100, system: 'Be nice.', messages: [{ role: 'user', content: 'Hello' }] });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'gpt-4o-mini',
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'Hello from the fake upstream.' }],
      usage: { input_tokens: 12, output_tokens: 6 },
    });
    expect(openai.requests.at(-1)?.path).toBe('/v1/chat/completions');
    expect(openai.requests.at(-1)?.body).toMatchObject({
      model: 'gpt-4o-mini',
      max_tokens: 100,
      messages: [
        { role: 'system', content: 'Be nice.' },
        { role: 'user', content: 'Hello' },
      ],
    });

    const events: string[] = [];
    const stream = client.messages.stream({ model: 'gpt-4o-mini', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] });
    stream.on('streamEvent', (event) => events.push(event.type));
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Hello from the fake upstream.' }]);
    expect(final.usage).toMatchObject({ input_tokens: 12, output_tokens: 6 });
    expect(events[0]).toBe('message_start');
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
    // gpt-4o-mini: ratio 0.075, completion 4: (12 + 6 × 4) × 0.075 = 2.7 → 3, for each answer.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([
      [3, 12, 6],
      [3, 12, 6],
    ]);
    // The path the caller called, though the channel was sent a chat completion request.
    expect(state.logs.map((log) => JSON.parse(log.other ?? '{}').request_path)).toEqual(['/v1/messages', '/v1/messages']);
  });

  it('refuses a whole answer with sensitive words in Anthropic error format, and charges it', async () => {
    const channelId = await relay.channel({ type: 1, key: 'openai-entry-sensitive', baseUrl: openai.baseUrl, models: ['gpt-4o-mini'] });
    const token = await relay.token();
    const options = relay.testApp.context.options;
    await options.set('CheckSensitiveEnabled', 'true');
    await options.set('CheckSensitiveOnCompletionEnabled', 'true');
    await options.set('SensitiveWords', 'fake upstream');
    const refused = await anthropicClient(relay.baseUrl, token.apiKey)
      .messages.create({ model: 'gpt-4o-mini', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    await options.set('CheckSensitiveOnCompletionEnabled', 'false');
    await options.set('CheckSensitiveEnabled', 'false');
    await options.set('SensitiveWords', 'test_sensitive');

    // The SDK raises its typed error: the body is Anthropic's error shape.
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect(refused).toMatchObject({
      status: 400,
      error: { type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(/^Sensitive words detected \(request id: \w+\)$/) } },
    });
    const state = await token.state([channelId]);
    expect(state.logs).toHaveLength(1);
    // gpt-4o-mini: (12 + 6 × 4) × 0.075 = 2.7 → 3: the upstream answered, so the answer is charged.
    expect(state.logs[0]).toMatchObject({ quota: 3, completion_tokens: 6 });
    expect(JSON.parse(state.logs[0]?.other ?? '{}').end_reason).toBe('sensitive');
    expect(state.token.used_quota).toBe(3);
  });

  it("turns a -thinking model mapping into thinking on the caller's own request, without the suffix", async () => {
    await relay.channel({
      type: 14,
      key: 'claude-entry-thinking',
      baseUrl: claude.url,
      models: ['claude-3-5-haiku-20241022'],
      modelMapping: { 'claude-3-5-haiku-20241022': 'claude-sonnet-4-5-20250929-thinking' },
    });
    const token = await relay.token();
    // This SDK version no longer types the sampling parameters; older callers still send them.
    const params = {
      model: 'claude-3-5-haiku-20241022',
      max_tokens: 2048,
      temperature: 0.7,
      messages: [{ role: 'user', content: 'Hello' }],
    } as Anthropic.MessageCreateParamsNonStreaming;
    const message = await anthropicClient(relay.baseUrl, token.apiKey).messages.create(params);
    expect(message.content).toEqual([{ type: 'text', text: 'Hi! My name is Claude.' }]);
    const sent = claude.requests.at(-1)?.body;
    expect(sent).toMatchObject({ model: 'claude-sonnet-4-5-20250929', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1638 } });
    expect(sent).not.toHaveProperty('temperature');
  });

  it('answers refusals and upstream errors in Anthropic format', async () => {
    const badKey = await anthropicClient(relay.baseUrl, 'sk-not-a-real-key')
      .messages.create({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(badKey).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((badKey as InstanceType<typeof Anthropic.AuthenticationError>).error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });

    const token = await relay.token();
    const invalid = await anthropicClient(relay.baseUrl, token.apiKey)
      .messages.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] } as unknown as Anthropic.MessageCreateParamsNonStreaming)
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(Anthropic.BadRequestError);

    await relay.channel({ type: 14, key: fakeClaudeKeys.rateLimited, baseUrl: claude.url, models: ['claude-opus-4-20250514'] });
    const limited = await anthropicClient(relay.baseUrl, token.apiKey)
      .messages.create({ model: 'claude-opus-4-20250514', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
  });

  it('completes a tool-use round trip through an OpenAI channel, streamed and not, charged exactly', async () => {
    const channelId = await relay.channel({ type: 1, key: 'openai-tools', baseUrl: openaiTools.url, models: ['gpt-4o'] });
    const token = await relay.token();
    const client = anthropicClient(relay.baseUrl, token.apiKey);
    const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };

    const first = await client.messages.create({ model: 'gpt-4o', max_tokens: 256, tools: [weatherTool], messages: [question] });
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toEqual([{ type: 'tool_use', id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'get_weather', input: { location: 'Paris, France' } }]);
    expect(first.usage).toMatchObject({ input_tokens: 83, output_tokens: 17 });
    expect(openaiTools.requests.at(-1)?.body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherTool.input_schema } }],
    });

    const streamed = await client.messages.stream({ model: 'gpt-4o', max_tokens: 256, tools: [weatherTool], messages: [question] }).finalMessage();
    expect(streamed.stop_reason).toBe('tool_use');
    expect(streamed.content).toEqual(first.content);
    expect(streamed.usage).toMatchObject({ input_tokens: 83, output_tokens: 17 });

    const toolUse = first.content[0] as Anthropic.ToolUseBlock;
    const final = await client.messages.create({
      model: 'gpt-4o',
      max_tokens: 256,
      tools: [weatherTool],
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '18°C, sunny' }] },
      ],
    });
    expect(final.stop_reason).toBe('end_turn');
    expect(final.content).toEqual([{ type: 'text', text: 'It is 18°C and sunny in Paris.' }]);
    // The OpenAI channel got the call and its result as OpenAI messages, joined by the call id.
    expect(openaiTools.requests.at(-1)?.body?.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris, France"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', content: '18°C, sunny' },
    ]);

    // gpt-4o: ratio 1.25, completion 4: (83 + 17 × 4) × 1.25 = 188.75 → 189 per call; (111 + 12 × 4) × 1.25 = 198.75 → 199.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([
      [189, 83, 17],
      [189, 83, 17],
      [199, 111, 12],
    ]);
    expect(state.token.remain_quota).toBe(10_000_000 - 189 - 189 - 199);
  });
});
