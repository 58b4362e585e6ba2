import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../testing/test-databases.ts';
import { fakeBedrockAccessKeys, startFakeBedrock } from '../providers/aws/testing/fake-bedrock.ts';
import { startFakeClaude } from '../providers/claude/testing/fake-claude.ts';
import type { FakeServer } from '../providers/claude/testing/fake-server.ts';
import { parseSseText } from '@switchboard/contracts';
import { startNativeRelay, type NativeRelay } from '../providers/claude/testing/native-relay.ts';
import { startFakeGemini } from '../providers/gemini/testing/fake-gemini.ts';
import { startFakeVertex, type FakeVertex } from '../providers/vertex/testing/fake-vertex.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';
import type { WriteStyle } from '../testing/write-style.ts';
import { estimateTokens } from './token-estimate.ts';

type Json = Record<string, unknown>;

/** What a caller got, whatever its dialect: enough to tell a complete answer from a cut one. */
interface CallerAnswer {
  /** Text, thinking and tool calls (name and arguments) in order. */
  readonly content: string;
  readonly finish: string;
  readonly usage: { prompt: number; completion: number };
  /** The stream ended as its dialect says, with no error event. */
  readonly ended: boolean;
  /** message_start's input_tokens (Anthropic callers), else undefined. */
  readonly announcedInput?: number;
}

/**
 * Every stream converter the relay has, each behind a channel whose caller model is priced at ratio
 * 1 (completion ratio 1), so the charge is prompt + completion exactly as the upstream reported.
 * `announced` is the input count an Anthropic caller's message_start carries: the upstream's when
 * its first frame has one (Claude, Gemini), else the relay's estimate of the prompt ('Hello') the first
 * time and, once the model's prompts have been seen to cost more upstream than estimated, the estimate
 * plus what they cost beyond it (`announcedLater`, here the upstream's 12), whichever entry asked before.
 */
const upstreams = [
  { name: 'openai-compatible', model: 'frames-openai', usage: { prompt: 12, completion: 6 }, announced: estimateTokens('Hello'), announcedLater: 12 },
  { name: 'claude', model: 'frames-claude', usage: { prompt: 25, completion: 15 }, announced: 25 },
  // Thinking tokens are billed as output: 20 candidates + 12 thoughts.
  { name: 'gemini', model: 'frames-gemini', usage: { prompt: 9, completion: 32 }, announced: 9 },
  { name: 'aws bedrock', model: 'frames-bedrock', usage: { prompt: 25, completion: 15 }, announced: 25 },
  { name: 'vertex gemini', model: 'frames-vertex-gemini', usage: { prompt: 9, completion: 32 }, announced: 9 },
  { name: 'vertex claude', model: 'frames-vertex-claude', usage: { prompt: 25, completion: 15 }, announced: 25 },
] as const;

type Entry = 'openai chat' | 'anthropic messages' | 'gemini streamGenerateContent';
const entries: readonly Entry[] = ['openai chat', 'anthropic messages', 'gemini streamGenerateContent'];

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return response.text();
}

const events = (text: string) => parseSseText(text).map((event) => ({ event: event.event, data: event.data }));
const json = (data: string): Json => JSON.parse(data) as Json;

async function askOpenAI(baseUrl: string, apiKey: string, model: string): Promise<CallerAnswer> {
  const text = await post(
    `${baseUrl}/v1/chat/completions`,
    { authorization: `Bearer ${apiKey}` },
    { model, messages: [{ role: 'user', content: 'Hello' }], stream: true, stream_options: { include_usage: true } },
  );
  const all = events(text);
  let content = '';
  let finish = '';
  let usage = { prompt: -1, completion: -1 };
  for (const { data } of all.slice(0, -1)) {
    const chunk = json(data) as {
      choices?: { delta?: Json & { tool_calls?: { function?: { name?: string; arguments?: string } }[] }; finish_reason?: string | null }[];
      usage?: { prompt_tokens: number; completion_tokens: number } | null;
    };
    for (const choice of chunk.choices ?? []) {
      content += String(choice.delta?.reasoning_content ?? '') + String(choice.delta?.content ?? '');
      for (const call of choice.delta?.tool_calls ?? []) content += `${call.function?.name ?? ''}${call.function?.arguments ?? ''}`;
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    if (chunk.usage) usage = { prompt: chunk.usage.prompt_tokens, completion: chunk.usage.completion_tokens };
  }
  const ended = all.at(-1)?.data === '[DONE]' && all.filter((event) => event.data === '[DONE]').length === 1 && !text.includes('"error"');
  return { content, finish, usage, ended };
}

async function askAnthropic(baseUrl: string, apiKey: string, model: string): Promise<CallerAnswer> {
  const text = await post(
    `${baseUrl}/v1/messages`,
    { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' },
    { model, max_tokens: 256, messages: [{ role: 'user', content: 'Hello' }], stream: true },
  );
  const all = events(text).map((event) => ({ event: event.event, data: json(event.data) }));
  let content = '';
  let finish = '';
  let usage = { prompt: -1, completion: -1 };
  // As the SDKs read it: message_start's usage, with the counts message_delta repeats replacing it
  // (a Claude channel's own stream repeats only output_tokens there).
  let reported: Record<string, number> = {};
  for (const { data } of all) {
    const delta = data.delta as Json | undefined;
    const block = data.content_block as Json | undefined;
    if (data.type === 'message_start') reported = { ...((data.message as { usage?: Record<string, number> } | undefined)?.usage ?? {}) };
    if (data.type === 'content_block_start' && block?.type === 'tool_use') content += String(block.name);
    if (data.type === 'content_block_delta') content += String(delta?.text ?? delta?.thinking ?? delta?.partial_json ?? '');
    if (data.type === 'message_delta') {
      finish = String(delta?.stop_reason);
      reported = { ...reported, ...(data.usage as Record<string, number>) };
      const count = (field: string) => reported[field] ?? 0;
      usage = { prompt: count('input_tokens') + count('cache_read_input_tokens') + count('cache_creation_input_tokens'), completion: count('output_tokens') };
    }
  }
  const names = all.map((item) => item.event);
  const ended = names[0] === 'message_start' && names.slice(-2).join() === 'message_delta,message_stop' && !names.includes('error');
  const announcedInput = (all[0]?.data.message as { usage?: { input_tokens?: number } } | undefined)?.usage?.input_tokens;
  return { content, finish, usage, ended, ...(announcedInput === undefined ? {} : { announcedInput }) };
}

async function askGemini(baseUrl: string, apiKey: string, model: string): Promise<CallerAnswer> {
  const text = await post(
    `${baseUrl}/v1beta/models/${model}:streamGenerateContent?alt=sse`,
    { 'x-goog-api-key': apiKey },
    { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] },
  );
  const all = events(text).map(
    (event) =>
      json(event.data) as {
        error?: unknown;
        candidates?: { content?: { parts?: Json[] }; finishReason?: string }[];
        usageMetadata?: { promptTokenCount: number; totalTokenCount: number };
      },
  );
  let content = '';
  for (const item of all) {
    for (const part of item.candidates?.[0]?.content?.parts ?? []) {
      const call = part.functionCall as { name?: string; args?: unknown } | undefined;
      content += call ? `${call.name}${JSON.stringify(call.args)}` : String(part.text ?? '');
    }
  }
  const last = all.at(-1);
  const metadata = last?.usageMetadata;
  return {
    content,
    finish: String(last?.candidates?.[0]?.finishReason ?? ''),
    usage: metadata ? { prompt: metadata.promptTokenCount, completion: metadata.totalTokenCount - metadata.promptTokenCount } : { prompt: -1, completion: -1 },
    ended: last?.candidates?.[0]?.finishReason !== undefined && all.every((item) => item.error === undefined),
  };
}

const ask: Record<Entry, (baseUrl: string, apiKey: string, model: string) => Promise<CallerAnswer>> = {
  'openai chat': askOpenAI,
  'anthropic messages': askAnthropic,
  'gemini streamGenerateContent': askGemini,
};

/**
 * The whole stream arriving in one read (end of body included) and every frame split at every byte
 * must give each caller the same complete answer, with its proper end, charged as the upstream
 * reported, through every entry format and every provider stream converter.
 */
describe.each(testDatabases())('streams delivered whole or byte by byte, every entry over every converter, on $dialect', (database) => {
  let relay: NativeRelay;
  let openai: FakeOpenAIUpstream;
  let claude: FakeServer;
  let gemini: FakeServer;
  let bedrock: FakeServer;
  let vertex: FakeVertex;
  const channelIds: number[] = [];

  const setWriteStyle = (style: WriteStyle) => {
    openai.setWriteStyle(style);
    for (const fake of [claude, gemini, bedrock, vertex]) fake.setWriteStyle(style);
  };

  beforeAll(async () => {
    openai = new FakeOpenAIUpstream();
    await openai.start();
    [claude, gemini, bedrock, vertex] = await Promise.all([startFakeClaude(), startFakeGemini(), startFakeBedrock(), startFakeVertex()]);
    relay = await startNativeRelay(database);
    const options = relay.testApp.context.options;
    const ratios = options.getJson<Record<string, number>>('ModelRatio');
    await options.set('ModelRatio', JSON.stringify({ ...ratios, ...Object.fromEntries(upstreams.map((upstream) => [upstream.model, 1])) }));
    const account = vertex.serviceAccount();
    channelIds.push(
      await relay.channel({ type: 1, key: 'frames-openai', baseUrl: openai.baseUrl, models: ['frames-openai'] }),
      await relay.channel({
        type: 14,
        key: 'frames-claude',
        baseUrl: claude.url,
        models: ['frames-claude'],
        modelMapping: { 'frames-claude': 'claude-3-7-sonnet-20250219' },
      }),
      await relay.channel({
        type: 24,
        key: 'frames-gemini',
        baseUrl: gemini.url,
        models: ['frames-gemini'],
        modelMapping: { 'frames-gemini': 'gemini-2.5-flash' },
      }),
      await relay.channel({
        type: 33,
        key: `${fakeBedrockAccessKeys.good}|fake-secret|us-west-2`,
        baseUrl: bedrock.url,
        models: ['frames-bedrock'],
        modelMapping: { 'frames-bedrock': 'claude-3-haiku-20240307' },
      }),
      await relay.channel({
        type: 41,
        key: account,
        baseUrl: vertex.url,
        models: ['frames-vertex-gemini', 'frames-vertex-claude'],
        modelMapping: { 'frames-vertex-gemini': 'gemini-2.5-flash', 'frames-vertex-claude': 'claude-3-7-sonnet-20250219' },
      }),
    );
  });
  afterAll(async () => {
    await relay.close();
    await Promise.all([openai.stop(), claude.close(), gemini.close(), bedrock.close(), vertex.close()]);
  });

  /** Models answered before in this app, through any entry: their prompt size upstream is learned. */
  const answeredModels = new Set<string>();

  describe.each(entries)('%s', (entry) => {
    it.each(upstreams)('over $name', async (upstream) => {
      const answers: Partial<Record<WriteStyle, CallerAnswer>> = {};
      for (const style of ['as-composed', 'one-write', 'byte-per-write'] as const) {
        setWriteStyle(style);
        const token = await relay.token();
        const answer = await ask[entry](relay.baseUrl, token.apiKey, upstream.model);
        answers[style] = answer;
        expect(answer, style).toMatchObject({ ended: true, usage: upstream.usage });
        expect(answer.content.length, style).toBeGreaterThan(0);
        const announced = answeredModels.has(upstream.model) && 'announcedLater' in upstream ? upstream.announcedLater : upstream.announced;
        if (entry === 'anthropic messages') expect(answer.announcedInput, style).toBe(announced);
        answeredModels.add(upstream.model);
        // Charged once, exactly the usage the upstream reported, not a local count.
        const state = await token.state(channelIds);
        expect(state.logs, style).toHaveLength(1);
        const log = state.logs[0];
        expect({ prompt: log?.prompt_tokens, completion: log?.completion_tokens, quota: log?.quota }, style).toEqual({
          ...upstream.usage,
          quota: upstream.usage.prompt + upstream.usage.completion,
        });
        expect(JSON.parse(log?.other ?? '{}').admin_info?.local_count_tokens ?? false, style).toBe(false);
        expect(state.token.used_quota, style).toBe(log?.quota);
      }
      setWriteStyle('as-composed');
      // The same answer however it was written (the announced input aside: it learns between rounds, above).
      const content = (answer: CallerAnswer | undefined) => answer && { ...answer, announcedInput: undefined };
      expect(content(answers['one-write'])).toEqual(content(answers['as-composed']));
      expect(content(answers['byte-per-write'])).toEqual(content(answers['as-composed']));
    });
  });
});
