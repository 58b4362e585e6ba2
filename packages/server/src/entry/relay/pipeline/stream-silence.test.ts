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

const upstreams = [
  { name: 'openai-compatible', model: 'silent-openai' },
  { name: 'claude', model: 'silent-claude' },
  { name: 'gemini', model: 'silent-gemini' },
  { name: 'aws bedrock', model: 'silent-bedrock' },
  { name: 'vertex gemini', model: 'silent-vertex-gemini' },
  { name: 'vertex claude', model: 'silent-vertex-claude' },
] as const;

const interrupted = 'The upstream stopped in the middle of the answer';

/** One streamed question in each entry format; returns the caller's last event as text. */
const entries = {
  'openai chat': async (baseUrl: string, apiKey: string, model: string): Promise<string> => {
    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }], stream: true }),
    });
    const events = parseSseText(await response.text());
    // OpenAI-format callers get the error event, then the [DONE] they wait for.
    expect(events.at(-1)?.data, model).toBe('[DONE]');
    return events.at(-2)?.data ?? '';
  },
  'anthropic messages': async (baseUrl: string, apiKey: string, model: string) => {
    const response = await fetch(`${baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }], stream: true }),
    });
    const events = parseSseText(await response.text());
    expect(events.at(-1)?.event, model).toBe('error');
    return events.at(-1)?.data ?? '';
  },
  'gemini streamGenerateContent': async (baseUrl: string, apiKey: string, model: string) => {
    const response = await fetch(`${baseUrl}/v1beta/models/${model}:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'x-goog-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] }),
    });
    return parseSseText(await response.text()).at(-1)?.data ?? '';
  },
} as const;

/**
 * An upstream that sends its first event and then nothing: STREAMING_TIMEOUT (1 s here) must end
 * the caller's stream with an interruption in the caller's format and charge what was produced,
 * through every entry format and every transport and converter.
 */
describe.each(testDatabases())('streams that go silent end after STREAMING_TIMEOUT on $dialect', (database) => {
  let relay: NativeRelay;
  let openai: FakeOpenAIUpstream;
  let claude: FakeServer;
  let gemini: FakeServer;
  let bedrock: FakeServer;
  let vertex: FakeVertex;

  beforeAll(async () => {
    openai = new FakeOpenAIUpstream();
    await openai.start();
    [claude, gemini, bedrock, vertex] = await Promise.all([startFakeClaude(), startFakeGemini(), startFakeBedrock(), startFakeVertex()]);
    relay = await startNativeRelay(database, { STREAMING_TIMEOUT: '1' });
    const options = relay.testApp.context.options;
    const ratios = options.getJson<Record<string, number>>('ModelRatio');
    await options.set('ModelRatio', JSON.stringify({ ...ratios, ...Object.fromEntries(upstreams.map((upstream) => [upstream.model, 1])) }));
    await relay.channel({ type: 1, key: 'silent-openai', baseUrl: openai.baseUrl, models: ['silent-openai'] });
    await relay.channel({
      type: 14,
      key: 'silent-claude',
      baseUrl: claude.url,
      models: ['silent-claude'],
      modelMapping: { 'silent-claude': 'claude-3-7-sonnet-20250219' },
    });
    await relay.channel({
      type: 24,
      key: 'silent-gemini',
      baseUrl: gemini.url,
      models: ['silent-gemini'],
      modelMapping: { 'silent-gemini': 'gemini-2.5-flash' },
    });
    await relay.channel({
      type: 33,
      key: `${fakeBedrockAccessKeys.good}|fake-secret|us-west-2`,
      baseUrl: bedrock.url,
      models: ['silent-bedrock'],
      modelMapping: { 'silent-bedrock': 'claude-3-haiku-20240307' },
    });
    const vertexModels = { 'silent-vertex-gemini': 'gemini-2.5-flash', 'silent-vertex-claude': 'claude-3-7-sonnet-20250219' };
    await relay.channel({ type: 41, key: vertex.serviceAccount(), baseUrl: vertex.url, models: Object.keys(vertexModels), modelMapping: vertexModels });
    openai.setWriteStyle('then-silence');
    for (const fake of [claude, gemini, bedrock, vertex]) fake.setWriteStyle('then-silence');
  });
  afterAll(async () => {
    await relay.close();
    await Promise.all([openai.stop(), claude.close(), gemini.close(), bedrock.close(), vertex.close()]);
  });

  it.each(Object.keys(entries) as (keyof typeof entries)[])('%s: every converter', async (entry) => {
    const cases = await Promise.all(upstreams.map(async (upstream) => ({ upstream, token: await relay.token() })));
    // All at once: each waits for the same one-second timeout.
    await Promise.all(
      cases.map(async ({ upstream, token }) => {
        const last = await entries[entry](relay.baseUrl, token.apiKey, upstream.model);
        expect(last, upstream.name).toContain(interrupted);
        const state = await token.state([]);
        expect(state.logs, upstream.name).toHaveLength(1);
        expect(JSON.parse(state.logs[0]?.other ?? '{}').stream_status, upstream.name).toBe('timeout');
        expect(state.token.used_quota, upstream.name).toBe(state.logs[0]?.quota);
      }),
    );
  });
});
