import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../testing/test-databases.ts';
import type { FakeServer } from '../providers/claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../providers/claude/testing/native-relay.ts';
import { startReplayUpstream, type RecordedAnswer } from './testing/replay-upstream.ts';

/**
 * Recorded vendor answers (recorded/<vendor>/, each file's source in its SOURCES.md) replayed by one
 * local upstream and requested through the official clients in ANOTHER format than the vendor's:
 * the openai SDK on Claude and Gemini channels, the Anthropic SDK on OpenAI-format channels. What the
 * caller's format can carry arrives (text, reasoning, tool calls, web citations as annotations,
 * finish reasons); a server tool's activity never arrives as a tool call to run; the consume log
 * bills exactly the usage the vendor recorded. docs/conformance.md lists the cases and what is not
 * covered; docs/format-conversions.md what each pair keeps and drops.
 */

interface Expected {
  /** A piece of the answer text. */
  readonly text?: string;
  /** The start of the reasoning (OpenAI `reasoning_content`, Anthropic thinking). */
  readonly reasoning?: string;
  /** The client tool calls by name, in order; [] when the answer must have none. */
  readonly toolCalls: readonly string[];
  /** url_citation annotations (OpenAI callers). */
  readonly citations?: number;
  readonly finish: string;
  /** What the vendor recorded: billed as prompt and completion tokens. */
  readonly billed: readonly [prompt: number, completion: number];
  /** Claude's web searches (`usage.server_tool_use.web_search_requests`), each charged at the tool's price. */
  readonly webSearches?: number;
}

interface Case {
  readonly name: string;
  /** Channel type (14 Claude, 24 Gemini, 42 Mistral, 43 DeepSeek, 25 Moonshot, 48 xAI, 1 OpenAI and OpenAI-compatible). */
  readonly channelType: number;
  readonly caller: 'openai' | 'anthropic';
  readonly stream: boolean;
  readonly answer: RecordedAnswer;
  readonly expected: Expected;
}

const claude = (file: string, stream: boolean): RecordedAnswer =>
  stream ? { dialect: 'anthropic', vendor: 'anthropic', stream: file } : { dialect: 'anthropic', vendor: 'anthropic', plain: file };
const openAIFormat = (vendor: string, file: string, stream: boolean): RecordedAnswer =>
  stream ? { dialect: 'openai', vendor, stream: file } : { dialect: 'openai', vendor, plain: file };
const gemini = (file: string, stream: boolean): RecordedAnswer =>
  stream ? { dialect: 'gemini', vendor: 'google', stream: file } : { dialect: 'gemini', vendor: 'google', plain: file };

/** A model of its own for the message_start test, so no other case has taught the relay its prompts' size. */
const announcedModel = 'moonshot-stream-announced';

/** new-api's built-in web search price, $10 per 1,000 calls, at 500,000 quota per dollar (billing/tool-prices.ts). */
const webSearchQuota = (10 / 1000) * 500_000;

const mistralThinking = 'The user is asking for 2+2. This is basic arithmetic. 2+2=4.';

const cases: Case[] = [
  // Claude's server tools through OpenAI chat: never a client tool call; web citations as annotations.
  {
    name: 'claude-web-search',
    channelType: 14,
    caller: 'openai',
    stream: false,
    answer: claude('anthropic-web-search-tool.1.json', false),
    expected: { text: 'Caroline Ellison', toolCalls: [], citations: 3, finish: 'stop', billed: [27_118, 600], webSearches: 2 },
  },
  {
    name: 'claude-web-search-stream',
    channelType: 14,
    caller: 'openai',
    stream: true,
    answer: claude('anthropic-web-search-tool.1.chunks.txt', true),
    expected: { text: 'retail expansion.', toolCalls: [], citations: 14, finish: 'stop', billed: [15_665, 795], webSearches: 1 },
  },
  {
    name: 'claude-web-fetch',
    channelType: 14,
    caller: 'openai',
    stream: false,
    answer: claude('anthropic-web-fetch-tool.1.json', false),
    expected: { toolCalls: [], finish: 'stop', billed: [4234, 462] },
  },
  {
    name: 'claude-web-fetch-stream',
    channelType: 14,
    caller: 'openai',
    stream: true,
    answer: claude('anthropic-web-fetch-tool.1.chunks.txt', true),
    expected: { toolCalls: [], finish: 'stop', billed: [4230, 446] },
  },
  {
    name: 'claude-mcp',
    channelType: 14,
    caller: 'openai',
    stream: false,
    answer: claude('anthropic-mcp.1.json', false),
    expected: { text: 'hello world', toolCalls: [], finish: 'stop', billed: [1250, 88] },
  },
  {
    name: 'claude-mcp-stream',
    channelType: 14,
    caller: 'openai',
    stream: true,
    answer: claude('anthropic-mcp.1.chunks.txt', true),
    expected: { text: 'hello world', toolCalls: [], finish: 'stop', billed: [1250, 83] },
  },
  {
    name: 'claude-code-execution',
    channelType: 14,
    caller: 'openai',
    stream: false,
    answer: claude('anthropic-code-execution-20250825.1.json', false),
    expected: { toolCalls: [], finish: 'stop', billed: [7881, 608] },
  },
  {
    name: 'claude-text',
    channelType: 14,
    caller: 'openai',
    stream: false,
    answer: claude('anthropic-text.json', false),
    expected: { toolCalls: [], finish: 'stop', billed: [12, 29] },
  },
  {
    name: 'claude-text-stream',
    channelType: 14,
    caller: 'openai',
    stream: true,
    answer: claude('anthropic-text.chunks.txt', true),
    expected: { toolCalls: [], finish: 'stop', billed: [12, 30] },
  },
  // Gemini through OpenAI chat.
  {
    name: 'gemini-reasoning',
    channelType: 24,
    caller: 'openai',
    stream: false,
    answer: gemini('google-reasoning.json', false),
    expected: { text: 'strawberry', toolCalls: [], finish: 'stop', billed: [9, 311] },
  },
  {
    name: 'gemini-reasoning-stream',
    channelType: 24,
    caller: 'openai',
    stream: true,
    answer: gemini('google-reasoning.chunks.txt', true),
    expected: { text: 'strawberry', toolCalls: [], finish: 'stop', billed: [9, 285] },
  },
  {
    name: 'gemini-tool-call',
    channelType: 24,
    caller: 'openai',
    stream: false,
    answer: gemini('google-tool-call.json', false),
    expected: { toolCalls: ['weather'], finish: 'tool_calls', billed: [29, 908] },
  },
  {
    name: 'gemini-tool-call-stream',
    channelType: 24,
    caller: 'openai',
    stream: true,
    answer: gemini('google-tool-call.chunks.txt', true),
    expected: { toolCalls: ['weather'], finish: 'tool_calls', billed: [29, 60] },
  },
  // OpenAI-format vendors through Anthropic Messages: every reasoning shape becomes thinking.
  {
    name: 'mistral-reasoning',
    channelType: 42,
    caller: 'anthropic',
    stream: false,
    answer: openAIFormat('mistral', 'mistral-reasoning.json', false),
    expected: { text: '2 + 2 = 4', reasoning: mistralThinking, toolCalls: [], finish: 'end_turn', billed: [10, 46] },
  },
  {
    name: 'mistral-reasoning-stream',
    channelType: 42,
    caller: 'anthropic',
    stream: true,
    answer: openAIFormat('mistral', 'mistral-reasoning.chunks.txt', true),
    expected: { text: '2 + 2 = 4', reasoning: mistralThinking, toolCalls: [], finish: 'end_turn', billed: [10, 46] },
  },
  {
    name: 'mistral-tool-call',
    channelType: 42,
    caller: 'anthropic',
    stream: false,
    answer: openAIFormat('mistral', 'mistral-tool-call.json', false),
    expected: { toolCalls: ['weather'], finish: 'tool_use', billed: [124, 22] },
  },
  {
    name: 'mistral-tool-call-stream',
    channelType: 42,
    caller: 'anthropic',
    stream: true,
    answer: openAIFormat('mistral', 'mistral-tool-call.chunks.txt', true),
    expected: { toolCalls: ['weather'], finish: 'tool_use', billed: [124, 22] },
  },
  {
    name: 'groq-reasoning',
    channelType: 1,
    caller: 'anthropic',
    stream: false,
    answer: openAIFormat('groq', 'groq-reasoning.json', false),
    // Groq's `message.reasoning` (not `reasoning_content`) arrives as thinking.
    expected: { text: 'strawberry', reasoning: 'Okay, so the user is asking how many times the letter', toolCalls: [], finish: 'end_turn', billed: [17, 649] },
  },
  {
    name: 'deepseek-reasoning',
    channelType: 43,
    caller: 'anthropic',
    stream: false,
    answer: openAIFormat('deepseek', 'deepseek-reasoning.json', false),
    expected: { toolCalls: [], finish: 'end_turn', billed: [18, 345] },
  },
  {
    name: 'deepseek-reasoning-stream',
    channelType: 43,
    caller: 'anthropic',
    stream: true,
    answer: openAIFormat('deepseek', 'deepseek-reasoning.chunks.txt', true),
    expected: { toolCalls: [], finish: 'end_turn', billed: [18, 219] },
  },
  {
    name: 'moonshot-stream',
    channelType: 25,
    caller: 'anthropic',
    stream: true,
    answer: openAIFormat('moonshot', 'moonshotai-stream.chunks.txt', true),
    expected: { text: 'Hello!', reasoning: 'Thinking aloud. ', toolCalls: [], finish: 'end_turn', billed: [9, 12] },
  },
  {
    name: 'openai-text',
    channelType: 1,
    caller: 'anthropic',
    stream: false,
    answer: openAIFormat('openai', 'openai-text.json', false),
    expected: { text: 'Galaxy Day', toolCalls: [], finish: 'end_turn', billed: [16, 363] },
  },
  {
    name: 'openai-text-stream',
    channelType: 1,
    caller: 'anthropic',
    stream: true,
    answer: openAIFormat('openai', 'openai-text.chunks.txt', true),
    expected: { text: 'Harmony Day', toolCalls: [], finish: 'end_turn', billed: [16, 300] },
  },
  // xAI reports reasoning beside completion_tokens: billed as output all the same.
  {
    name: 'xai-text',
    channelType: 48,
    caller: 'anthropic',
    stream: false,
    answer: openAIFormat('xai', 'xai-text.json', false),
    expected: { text: 'Hello', toolCalls: [], finish: 'end_turn', billed: [12, 229] },
  },
  {
    name: 'xai-tool-call-stream',
    channelType: 48,
    caller: 'anthropic',
    stream: true,
    answer: openAIFormat('xai', 'xai-tool-call.chunks.txt', true),
    expected: { toolCalls: ['weather'], finish: 'tool_use', billed: [291, 222] },
  },
  {
    name: 'moonshot-text',
    channelType: 25,
    caller: 'anthropic',
    stream: false,
    answer: openAIFormat('moonshot', 'moonshotai-text.json', false),
    expected: { text: 'Hello, world!', toolCalls: [], finish: 'end_turn', billed: [9, 5] },
  },
];

/** What a caller received, whatever its format. */
interface Received {
  text: string;
  reasoning: string;
  toolCalls: string[];
  citations: number;
  finish: string;
}

const weatherTool = { name: 'weather', description: 'The weather in a location', parameters: { type: 'object', properties: { location: { type: 'string' } } } };

async function askOpenAI(client: OpenAI, model: string, stream: boolean): Promise<Received> {
  const request = { model, messages: [{ role: 'user' as const, content: 'Hi' }], tools: [{ type: 'function' as const, function: weatherTool }] };
  const received: Received = { text: '', reasoning: '', toolCalls: [], citations: 0, finish: '' };
  if (!stream) {
    const completion = await client.chat.completions.create(request);
    const choice = completion.choices[0];
    const message = choice?.message as (OpenAI.ChatCompletionMessage & { reasoning_content?: string }) | undefined;
    received.text = message?.content ?? '';
    received.reasoning = message?.reasoning_content ?? '';
    received.toolCalls = (message?.tool_calls ?? []).map((call) => (call.type === 'function' ? call.function.name : call.type));
    received.citations = (message?.annotations ?? []).filter((annotation) => annotation.type === 'url_citation' && annotation.url_citation.url).length;
    received.finish = choice?.finish_reason ?? '';
    return received;
  }
  const calls = new Map<number, string>();
  for await (const chunk of await client.chat.completions.create({ ...request, stream: true })) {
    const choice = chunk.choices[0];
    if (!choice) continue;
    const delta = choice.delta as typeof choice.delta & { reasoning_content?: string; annotations?: { type: string; url_citation?: { url?: string } }[] };
    received.text += delta.content ?? '';
    received.reasoning += delta.reasoning_content ?? '';
    received.citations += (delta.annotations ?? []).filter((annotation) => annotation.type === 'url_citation' && annotation.url_citation?.url).length;
    for (const call of delta.tool_calls ?? []) calls.set(call.index, (calls.get(call.index) ?? '') + (call.function?.name ?? ''));
    if (choice.finish_reason) received.finish = choice.finish_reason;
  }
  received.toolCalls = [...calls.values()];
  return received;
}

async function askAnthropic(client: Anthropic, model: string, stream: boolean): Promise<Received> {
  const request = {
    model,
    max_tokens: 1024,
    messages: [{ role: 'user' as const, content: 'Hi' }],
    tools: [
      {
        name: weatherTool.name,
        description: weatherTool.description,
        input_schema: { type: 'object' as const, properties: weatherTool.parameters.properties },
      },
    ],
  };
  // finalMessage() assembles the stream as the SDK does, and throws on a malformed one.
  const message = stream ? await client.messages.stream(request).finalMessage() : await client.messages.create(request);
  const received: Received = { text: '', reasoning: '', toolCalls: [], citations: 0, finish: message.stop_reason ?? '' };
  for (const block of message.content) {
    if (block.type === 'text') received.text += block.text;
    else if (block.type === 'thinking') received.reasoning += block.thinking;
    else if (block.type === 'tool_use') received.toolCalls.push(block.name);
  }
  return received;
}

describe.each(testDatabases().filter((database) => database.dialect === 'sqlite'))('recorded answers across formats on $dialect', (database) => {
  let relay: NativeRelay;
  let upstream: FakeServer;
  let openai: OpenAI;
  let anthropic: Anthropic;
  let token: Awaited<ReturnType<NativeRelay['token']>>;
  const channelOfType = new Map<number, number>();

  beforeAll(async () => {
    const answers = new Map(cases.map((entry) => [entry.name, entry.answer]));
    answers.set(announcedModel, openAIFormat('moonshot', 'moonshotai-stream.chunks.txt', true));
    upstream = await startReplayUpstream(answers);
    relay = await startNativeRelay(database);
    const models = [...cases.map((entry) => entry.name), announcedModel];
    // Ratio 1 for every token: the quota is the tokens billed, so a wrong count cannot hide.
    await relay.testApp.context.options.set('ModelRatio', JSON.stringify(Object.fromEntries(models.map((model) => [model, 1]))));
    await relay.testApp.context.options.set('CompletionRatio', JSON.stringify(Object.fromEntries(models.map((model) => [model, 1]))));
    await relay.testApp.context.options.set('CacheRatio', JSON.stringify(Object.fromEntries(models.map((model) => [model, 1]))));
    for (const type of new Set(cases.map((entry) => entry.channelType))) {
      const typeModels = cases.filter((entry) => entry.channelType === type).map((entry) => entry.name);
      if (type === 25) typeModels.push(announcedModel);
      channelOfType.set(type, await relay.channel({ type, key: `sk-replay-${type}`, baseUrl: upstream.url, models: typeModels }));
    }
    token = await relay.token();
    openai = new OpenAI({ apiKey: token.apiKey, baseURL: `${relay.baseUrl}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: token.apiKey, baseURL: relay.baseUrl, maxRetries: 0 });
  });
  afterAll(async () => {
    await relay.close();
    await upstream.close();
  });

  it.each(cases)('$name: $caller caller on channel type $channelType', async ({ name, caller, stream, expected }) => {
    const received = caller === 'openai' ? await askOpenAI(openai, name, stream) : await askAnthropic(anthropic, name, stream);

    if (expected.text) expect(received.text).toContain(expected.text);
    expect(received.text).not.toContain('[object Object]');
    if (expected.reasoning !== undefined) expect(received.reasoning.startsWith(expected.reasoning), received.reasoning).toBe(true);
    expect(received.toolCalls).toEqual(expected.toolCalls);
    expect(received.citations).toBe(expected.citations ?? 0);
    expect(received.finish).toBe(expected.finish);

    const [prompt, completion] = expected.billed;
    await expect
      .poll(
        async () =>
          (await token.state([...channelOfType.values()])).logs
            .filter((log) => log.model_name === name)
            .map((log) => [log.prompt_tokens, log.completion_tokens, log.quota]),
        {
          timeout: 10_000,
          interval: 50,
        },
      )
      .toEqual([[prompt, completion, prompt + completion + (expected.webSearches ?? 0) * webSearchQuota]]);
  });

  it("announces the upstream's own prompt count in message_start once the model's answers taught it, never less than the local estimate", async () => {
    const announced = async (): Promise<[start: number, end: number]> => {
      let start = -1;
      const stream = anthropic.messages.stream({ model: announcedModel, max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });
      stream.on('streamEvent', (event) => {
        if (event.type === 'message_start') start = event.message.usage.input_tokens;
      });
      const message = await stream.finalMessage();
      return [start, message.usage.input_tokens];
    };
    // The first stream knows only the local estimate of "Hi" (1 token); the upstream counted 9,
    // which the closing message_delta carries.
    expect(await announced()).toEqual([1, 9]);
    await expect
      .poll(async () => (await token.state([...channelOfType.values()])).logs.filter((log) => log.model_name === announcedModel).length, { timeout: 10_000 })
      .toBe(1);
    // From then on message_start says what this model's prompts cost upstream.
    expect(await announced()).toEqual([9, 9]);
  });
});
