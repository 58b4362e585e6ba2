import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { startNativeRelay, type NativeRelay } from '../../providers/claude/testing/native-relay.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import { eventsOf, recordedEvents, startRecordedUpstream, type RecordedUpstream } from './testing/recorded-answers.ts';

/** What Codex sends: instructions, the conversation as input items, its patch tool and a shell function, streamed. */
const codexTurn = {
  model: 'gpt-5.1',
  instructions: 'You are Codex, a coding agent.',
  input: [{ type: 'message' as const, role: 'user' as const, content: [{ type: 'input_text' as const, text: 'Create hello.txt with "Hello"' }] }],
  tools: [
    { type: 'apply_patch' as const },
    {
      type: 'function' as const,
      name: 'shell',
      description: 'Runs a command',
      parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] },
      strict: false,
    },
  ],
  tool_choice: 'auto' as const,
  parallel_tool_calls: false,
  reasoning: { effort: 'none' as const },
  store: false,
  stream: true as const,
};

describe.each(testDatabases())('a Codex turn through /v1/responses on $dialect', (database) => {
  let relay: NativeRelay;
  let openai: RecordedUpstream;
  let channelId: number;

  beforeAll(async () => {
    openai = await startRecordedUpstream('openai');
    relay = await startNativeRelay(database);
    await relay.testApp.context.options.set('ModelRatio', JSON.stringify({ 'gpt-5.1': 1 }));
    channelId = await relay.channel({ type: 1, key: 'openai-recorded', baseUrl: openai.url, models: ['gpt-5.1'] });
  });
  afterAll(async () => {
    await relay.close();
    await openai.close();
  });

  it('streams the recorded apply_patch answer with the same events, the request as written, billed from response.completed', async () => {
    openai.play('openai-apply-patch-tool.1');
    const token = await relay.token();
    const raw = await openaiClient(relay.baseUrl, token.apiKey)
      // The SDK's types lag the tools Codex sends; the wire is what matters here.
      .responses.create(codexTurn as unknown as Parameters<ReturnType<typeof openaiClient>['responses']['create']>[0])
      .asResponse();
    expect(raw.headers.get('content-type')).toContain('text/event-stream');
    const events = eventsOf(await raw.text());
    expect(events).toEqual(recordedEvents('openai-apply-patch-tool.1.chunks.txt'));
    expect(events.map((event) => (event as { type: string }).type)).toContain('response.output_item.done');
    expect(openai.requests.at(-1)?.body).toEqual(codexTurn);
    // response.completed: 642 in, 67 out; gpt-5 family completion ratio 8: 642 + 67 × 8 = 1178.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([[1178, 642, 67]]);
  });
});
