import { describe, expect, it } from 'vitest';
import { openAIChatRequestSchema } from '@switchboard/contracts';
import { withCallerRequest } from '../../pipeline/answer-format.ts';
import type { ConversionContext, RelayRequest } from '../../provider.ts';
import { claudeRequestFromRelay } from '../../providers/claude/claude-chat.ts';
import { claudeRequestSchema } from '../../providers/claude/claude-api.ts';
import { convertChatRequest } from '../../providers/claude/convert-chat-request.ts';
import { convertChatResponse } from '../../providers/claude/convert-chat-response.ts';
import { createChatStreamConverter } from '../../providers/claude/convert-chat-stream.ts';
import { parseSseText } from '@switchboard/contracts';
import { readJsonFixture, readStreamFixture } from '../../providers/claude/testing/fixtures.ts';
import { convertMessagesAnswer } from './convert-messages-answer.ts';
import { convertMessagesRequest } from './convert-messages-request.ts';
import { createMessagesStreamWriter } from './messages-stream-writer.ts';

const claudeFixtures = new URL('../../providers/claude/__fixtures__/', import.meta.url);
const context: ConversionContext = {
  model: 'claude-sonnet-4-20250514',
  upstreamModel: 'claude-sonnet-4-20250514',
  requestId: 'req5',
  createdAt: 1_700_000_000,
};

const anthropicRequest = claudeRequestSchema.parse({
  model: 'claude-sonnet-4-20250514',
  max_tokens: 2048,
  system: [{ type: 'text', text: 'Long cached instructions', cache_control: { type: 'ephemeral' } }],
  thinking: { type: 'enabled', budget_tokens: 1024 },
  stop_sequences: ['###'],
  metadata: { user_id: 'u-1' },
  tools: [
    {
      name: 'get_weather',
      description: 'Weather now',
      input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      cache_control: { type: 'ephemeral' },
    },
  ],
  tool_choice: { type: 'auto', disable_parallel_tool_use: true },
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Weather in Oslo?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Need the tool.', signature: 'sig-1' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '-3C' }] },
        { type: 'text', text: 'And tomorrow?' },
      ],
    },
  ],
});

describe('Anthropic request → OpenAI chat request', () => {
  it('converts system, images, thinking, tool use and tool results', () => {
    const body = convertMessagesRequest(anthropicRequest);
    expect(body.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Long cached instructions' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Oslo?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
      { role: 'tool', tool_call_id: 'toolu_1', content: '-3C' },
      { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
    ]);
    expect(body).toMatchObject({ max_tokens: 2048, stop: ['###'], user: 'u-1', tool_choice: 'auto', parallel_tool_calls: false });
    // Only fields OpenAI knows: real OpenAI refuses the rest.
    expect(body.thinking).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });

  it('reaches a Claude channel as the caller sent it, with the channel model, never serialised elsewhere', () => {
    const body = withCallerRequest(convertMessagesRequest(anthropicRequest), { dialect: 'anthropic', body: anthropicRequest });
    const relayed: RelayRequest = {
      capability: 'chat',
      path: '/v1/chat/completions',
      contentType: 'application/json',
      rawBody: Buffer.from(JSON.stringify(body)),
      body: { ...body, model: 'claude-sonnet-4-5' },
      bodyChanged: true,
      model: anthropicRequest.model,
      upstreamModel: 'claude-sonnet-4-5',
      stream: false,
    };
    expect(claudeRequestFromRelay(relayed)).toEqual({ body: { ...anthropicRequest, model: 'claude-sonnet-4-5' }, warnings: [] });
    expect(JSON.parse(JSON.stringify(relayed.body))).toEqual({ ...convertMessagesRequest(anthropicRequest), model: 'claude-sonnet-4-5' });
  });

  it('survives the trip through the Claude converter for OpenAI-format callers', () => {
    const openAI = openAIChatRequestSchema.parse(convertMessagesRequest(anthropicRequest));
    const { body } = convertChatRequest(openAI, 'claude-sonnet-4-20250514');
    expect(body.messages).toEqual([
      anthropicRequest.messages[0],
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '-3C' },
          { type: 'text', text: 'And tomorrow?' },
        ],
      },
    ]);
    expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
  });
});

describe('OpenAI answers → Anthropic answers', () => {
  it('renders a Claude answer back exactly, with cache usage in Anthropic semantics', () => {
    const original = readJsonFixture(claudeFixtures, 'messages-tool-use.json') as Record<string, unknown>;
    const answer = convertMessagesAnswer(convertChatResponse(original, context).body, context);
    expect(answer).toEqual({
      id: original.id,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-20250514',
      content: original.content,
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 472, output_tokens: 89, cache_creation_input_tokens: 1200, cache_read_input_tokens: 3000 },
    });
  });

  it('renders a Claude stream back as the same sequence of events', () => {
    const converter = createChatStreamConverter(context);
    const writer = createMessagesStreamWriter(context, { usageSoFar: () => converter.usage() ?? { promptTokens: 0, completionTokens: 0 } });
    let text = '';
    for (const upstreamEvent of parseSseText(readStreamFixture(claudeFixtures, 'messages-tool-use.chunks.txt')))
      for (const chunk of converter.push(upstreamEvent)) text += writer.push(chunk);
    text += writer.end(converter.usage());
    const events = parseSseText(text).map((item) => ({ event: item.event, data: JSON.parse(item.data) as Record<string, unknown> }));
    expect(events.map((item) => item.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events.every((item) => item.data.type === item.event)).toBe(true);
    // message_start says what Anthropic's own message_start said, cache counts included.
    expect(events[0]?.data).toMatchObject({
      message: {
        id: 'msg_014p7gG3wDgGV9EUtLvnow3U',
        role: 'assistant',
        model: 'claude-sonnet-4-20250514',
        usage: { input_tokens: 472, output_tokens: 2, cache_creation_input_tokens: 1200, cache_read_input_tokens: 3000 },
      },
    });
    expect(events[3]?.data).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
    });
    expect(events[9]?.data).toEqual({
      type: 'content_block_start',
      index: 2,
      content_block: { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', input: {} },
    });
    expect(events[13]?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 472, output_tokens: 89, cache_creation_input_tokens: 1200, cache_read_input_tokens: 3000 },
    });
  });

  it('renders an OpenAI channel stream (usage chunk after the finish) and an upstream error', () => {
    // OpenAI reports usage only at the end: message_start announces the relay's prompt estimate.
    const estimate = { usageSoFar: () => ({ promptTokens: 9, completionTokens: 0 }) };
    const writer = createMessagesStreamWriter(context, estimate);
    const chunks = [
      { id: 'chatcmpl-1', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }] },
      { id: 'chatcmpl-1', choices: [{ index: 0, delta: { content: 'lo' }, finish_reason: 'stop' }] },
      { id: 'chatcmpl-1', choices: [], usage: { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14, prompt_tokens_details: { cached_tokens: 4 } } },
    ];
    const text = chunks.map((chunk) => writer.push(chunk)).join('') + writer.end(undefined);
    const events = parseSseText(text).map((item) => JSON.parse(item.data) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ type: 'message_start', message: { id: 'msg_req5', usage: { input_tokens: 9, output_tokens: 0 } } });
    expect(events.at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: 8, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 4 },
    });
    const failing = createMessagesStreamWriter(context, estimate);
    expect(failing.push({ error: { message: 'Overloaded', type: 'overloaded_error' } })).toContain(
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    );
    expect(failing.end(undefined)).toBe('');
  });
});
