import { describe, expect, it } from 'vitest';
import { openAIChatRequestSchema, type OpenAIChatChunk } from '@switchboard/contracts';
import { withCallerRequest } from '../../pipeline/answer-format.ts';
import type { ConversionContext, RelayRequest } from '../../provider.ts';
import { claudeRequestFromRelay } from './claude-chat.ts';
import { convertChatRequest, defaultMaxTokens } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { normalizeClaudeUsage } from './convert-usage.ts';
import { mapStopReason } from './map-stop-reason.ts';
import { parseClaudeError } from './parse-claude-error.ts';
import { parseSseText } from '@switchboard/contracts';
import { readJsonFixture, readStreamFixture } from './testing/fixtures.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const context: ConversionContext = { model: 'claude-sonnet-4', upstreamModel: 'claude-sonnet-4-20250514', requestId: 'req1', createdAt: 1_700_000_000 };

const request = (body: Record<string, unknown>) => openAIChatRequestSchema.parse({ model: 'claude-sonnet-4', ...body });

describe('OpenAI chat request → Anthropic Messages request', () => {
  it('moves system prompts out, converts images, tool calls and tool results, and merges turns', () => {
    const { body, warnings } = convertChatRequest(
      request({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: [{ type: 'text', text: 'Use celsius.' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this image, and the weather?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
            ],
          },
          {
            role: 'assistant',
            content: 'Checking.',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
          { role: 'user', content: 'Thanks' },
        ],
        tools: [
          {
            type: 'function',
            function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
          },
        ],
        tool_choice: 'required',
        parallel_tool_calls: false,
        stop: 'END',
        temperature: 1.5,
        max_tokens: 300,
        user: 'user-7',
        stream: true,
      }),
      'claude-sonnet-4-20250514',
    );
    expect(body).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 300,
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Use celsius.' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this image, and the weather?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { location: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: '{"temp":21}' },
            { type: 'text', text: 'Thanks' },
          ],
        },
      ],
      tools: [{ name: 'get_weather', description: 'Weather now', input_schema: { type: 'object', properties: { location: { type: 'string' } } } }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      stop_sequences: ['END'],
      temperature: 1,
      metadata: { user_id: 'user-7' },
      stream: true,
    });
    expect(warnings).toEqual(['temperature above 1 lowered to 1']);
  });

  it('defaults max_tokens by model and prefers max_completion_tokens', () => {
    expect(convertChatRequest(request({ messages: [{ role: 'user', content: 'hi' }] }), 'claude-3-haiku-20240307').body.max_tokens).toBe(4096);
    expect(defaultMaxTokens('claude-3-5-haiku-20241022')).toBe(8192);
    expect(convertChatRequest(request({ messages: [{ role: 'user', content: 'hi' }], max_tokens: 5, max_completion_tokens: 50 }), 'x').body.max_tokens).toBe(
      50,
    );
  });

  it('turns a -thinking model suffix and reasoning_effort into extended thinking', () => {
    const suffixed = convertChatRequest(
      request({ messages: [{ role: 'user', content: 'hi' }], max_tokens: 10_000, temperature: 0.3 }),
      'claude-3-7-sonnet-20250219-thinking',
    );
    expect(suffixed.body.model).toBe('claude-3-7-sonnet-20250219');
    expect(suffixed.body.thinking).toEqual({ type: 'enabled', budget_tokens: 8000 });
    expect(suffixed.body.temperature).toBeUndefined();
    expect(suffixed.warnings).toContain('temperature dropped: not allowed with thinking');

    const effort = convertChatRequest(
      request({ messages: [{ role: 'user', content: 'hi' }], max_tokens: 20_000, reasoning_effort: 'low' }),
      'claude-sonnet-4-20250514',
    );
    expect(effort.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });

    const tooSmall = convertChatRequest(
      request({ messages: [{ role: 'user', content: 'hi' }], max_tokens: 500, reasoning_effort: 'high' }),
      'claude-sonnet-4-20250514',
    );
    expect(tooSmall.body.thinking).toBeUndefined();
  });

  it('sends temperature alone when temperature and top_p are both given', () => {
    const both = convertChatRequest(
      request({ messages: [{ role: 'user', content: 'hi' }], temperature: 0.3, top_p: 0.8, top_k: 40 }),
      'claude-sonnet-4-5-20250929',
    );
    expect(both.body).toMatchObject({ temperature: 0.3, top_k: 40 });
    expect(both.body.top_p).toBeUndefined();
    expect(both.warnings).toEqual(['top_p dropped: Claude takes temperature or top_p, not both']);
    expect(convertChatRequest(request({ messages: [{ role: 'user', content: 'hi' }], top_p: 0.8 }), 'claude-sonnet-4-5-20250929').body.top_p).toBe(0.8);
  });

  it('with thinking on, drops temperature and top_k and keeps top_p only from 0.95 to 1', () => {
    const thinking = (sampling: Record<string, number>) =>
      convertChatRequest(
        request({ messages: [{ role: 'user', content: 'hi' }], max_tokens: 4000, reasoning_effort: 'low', ...sampling }),
        'claude-sonnet-4-20250514',
      );
    const kept = thinking({ temperature: 0.5, top_k: 20, top_p: 0.97 });
    expect(kept.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 }, top_p: 0.97 });
    expect(kept.body.temperature).toBeUndefined();
    expect(kept.body.top_k).toBeUndefined();
    expect(kept.warnings).toEqual(['temperature dropped: not allowed with thinking', 'top_k dropped: not allowed with thinking']);
    const dropped = thinking({ top_p: 0.9 });
    expect(dropped.body.top_p).toBeUndefined();
    expect(dropped.warnings).toEqual(['top_p dropped: only 0.95 to 1 is allowed with thinking']);
    expect(thinking({ top_p: 1 }).body.top_p).toBe(1);
  });

  it("removes a -thinking suffix from an Anthropic caller's own request and turns thinking on", () => {
    const relayed = (upstreamModel: string, original: Record<string, unknown>): RelayRequest => {
      const body = withCallerRequest({ model: 'claude-sonnet-4', messages: [] }, { dialect: 'anthropic', body: original });
      return {
        capability: 'chat',
        path: '/v1/chat/completions',
        contentType: 'application/json',
        rawBody: Buffer.alloc(0),
        body,
        bodyChanged: true,
        model: 'claude-sonnet-4',
        upstreamModel,
        stream: true,
      };
    };
    const original = { model: 'claude-sonnet-4', max_tokens: 2000, temperature: 0.7, top_p: 0.9, messages: [{ role: 'user', content: 'hi' }] };
    expect(claudeRequestFromRelay(relayed('claude-sonnet-4-5-20250929-thinking', original))).toEqual({
      body: {
        model: 'claude-sonnet-4-5-20250929',
        max_tokens: 2000,
        messages: [{ role: 'user', content: 'hi' }],
        thinking: { type: 'enabled', budget_tokens: 1600 },
        stream: true,
      },
      warnings: ['temperature dropped: not allowed with thinking', 'top_p dropped: only 0.95 to 1 is allowed with thinking'],
    });
    // The caller's own thinking settings win; without the suffix the request goes unchanged.
    const ownThinking = { ...original, temperature: undefined, top_p: undefined, thinking: { type: 'enabled', budget_tokens: 1024 } };
    expect(claudeRequestFromRelay(relayed('claude-sonnet-4-20250514-thinking', ownThinking)).body).toMatchObject({
      model: 'claude-sonnet-4-20250514',
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
    expect(claudeRequestFromRelay(relayed('claude-sonnet-4-20250514', original))).toEqual({
      body: { ...original, model: 'claude-sonnet-4-20250514', stream: true },
      warnings: [],
    });
    // Too small a max_tokens for any budget: no thinking, but still no suffix.
    expect(claudeRequestFromRelay(relayed('claude-sonnet-4-20250514-thinking', { ...original, max_tokens: 1000 })).body).toMatchObject({
      model: 'claude-sonnet-4-20250514',
      temperature: 0.7,
    });
  });

  it('maps tool_choice variants', () => {
    const choice = (tool_choice: unknown) => convertChatRequest(request({ messages: [{ role: 'user', content: 'hi' }], tool_choice }), 'm').body.tool_choice;
    expect(choice('auto')).toEqual({ type: 'auto' });
    expect(choice('none')).toEqual({ type: 'none' });
    expect(choice({ type: 'function', function: { name: 'f' } })).toEqual({ type: 'tool', name: 'f' });
  });
});

describe('Anthropic answer → OpenAI chat completion', () => {
  it('converts text, thinking and tool use, with cache reads and writes in usage', () => {
    const result = convertChatResponse(readJsonFixture(fixtures, 'messages-tool-use.json'), context);
    expect(result.body).toEqual({
      id: 'msg_01Aq9w938a90dw8q',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'claude-sonnet-4',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: "I'll check the current weather in San Francisco.",
            reasoning_content: 'The user wants the weather, so I call the tool.',
            tool_calls: [
              {
                id: 'toolu_01A09q90qw90lq917835lq9',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' },
              },
            ],
            thinking_blocks: [
              {
                type: 'thinking',
                thinking: 'The user wants the weather, so I call the tool.',
                signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds',
              },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 4672, completion_tokens: 89, total_tokens: 4761, prompt_tokens_details: { cached_tokens: 3000, cache_creation_tokens: 1200 } },
    });
    expect(result.usage).toEqual({ promptTokens: 4672, completionTokens: 89, cachedTokens: 3000, cacheCreationTokens: 1200 });
  });

  it('counts cache writes with a 1-hour TTL apart, streamed and not', () => {
    const expected = { promptTokens: 2100, completionTokens: 51, cachedTokens: 0, cacheCreationTokens: 2000, cacheCreation1hTokens: 1500 };
    expect(convertChatResponse(readJsonFixture(fixtures, 'messages-cache-1h.json'), context).usage).toEqual(expected);
    const converter = createChatStreamConverter(context);
    for (const event of parseSseText(readStreamFixture(fixtures, 'messages-cache-1h.chunks.txt'))) converter.push(event);
    expect(converter.usage()).toEqual(expected);
    // Only the split, no total: the split is the total.
    expect(normalizeClaudeUsage({ input_tokens: 10, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 40 } })).toEqual({
      promptTokens: 50,
      completionTokens: 0,
      cachedTokens: 0,
      cacheCreationTokens: 40,
      cacheCreation1hTokens: 40,
    });
  });

  it('answers a plain text message without cache details', () => {
    const result = convertChatResponse(readJsonFixture(fixtures, 'messages-text.json'), context);
    expect(result.body.choices[0]?.message).toEqual({ role: 'assistant', content: 'Hi! My name is Claude.' });
    expect(result.body.choices[0]?.finish_reason).toBe('stop');
    expect(result.body.usage).toEqual({ prompt_tokens: 2095, completion_tokens: 503, total_tokens: 2598 });
  });

  it('maps every documented stop reason', () => {
    expect(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded', null].map(mapStopReason)).toEqual([
      'stop',
      'length',
      'stop',
      'tool_calls',
      'stop',
      'content_filter',
      'length',
      null,
    ]);
  });
});

describe('Anthropic stream → OpenAI chunks', () => {
  it('converts the documented tool-use stream, numbering tool calls and attaching usage to the finish', () => {
    const converter = createChatStreamConverter(context);
    const chunks = parseSseText(readStreamFixture(fixtures, 'messages-tool-use.chunks.txt')).flatMap((event) => converter.push(event)) as OpenAIChatChunk[];
    const deltas = chunks.map((chunk) => chunk.choices[0]?.delta);
    expect(deltas).toEqual([
      { role: 'assistant', content: '' },
      { reasoning_content: 'Weather needs the tool.' },
      { thinking_signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
      { content: "Okay, let's check" },
      { content: ' the weather.' },
      { tool_calls: [{ index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"location":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: ' "San Francisco, CA"}' } }] },
      {},
    ]);
    const last = chunks.at(-1);
    expect(last?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(last?.usage).toEqual({
      prompt_tokens: 4672,
      completion_tokens: 89,
      total_tokens: 4761,
      prompt_tokens_details: { cached_tokens: 3000, cache_creation_tokens: 1200 },
    });
    expect(chunks.every((chunk) => chunk.id === 'msg_014p7gG3wDgGV9EUtLvnow3U' && chunk.model === 'claude-sonnet-4')).toBe(true);
    expect(converter.usage()).toEqual({ promptTokens: 4672, completionTokens: 89, cachedTokens: 3000, cacheCreationTokens: 1200 });
    expect(converter.takeText()).toBe('Weather needs the tool.Okay, let\'s check the weather.get_weather{"location": "San Francisco, CA"}');
    expect(converter.takeText()).toBe('');
  });

  it('forwards an in-stream error as an OpenAI error object', () => {
    const converter = createChatStreamConverter(context);
    const out = parseSseText(readStreamFixture(fixtures, 'error-overloaded.chunks.txt')).flatMap((event) => converter.push(event));
    expect(out.at(-1)).toEqual({ error: { message: 'Overloaded', type: 'overloaded_error' } });
    expect(converter.usage()).toEqual({ promptTokens: 10, completionTokens: 1, cachedTokens: 0, cacheCreationTokens: 0 });
  });

  it('ignores malformed events', () => {
    expect(createChatStreamConverter(context).push({ event: 'x', data: '{not json' })).toEqual([]);
  });
});

describe('Anthropic errors', () => {
  it('disables the channel on an invalid key and leaves rate limits to retries', () => {
    expect(parseClaudeError(401, readJsonFixture(fixtures, 'error-authentication.json'))).toEqual({
      status: 401,
      message: 'invalid x-api-key',
      type: 'authentication_error',
      code: 'authentication_error',
      disablesChannel: true,
    });
    expect(parseClaudeError(429, readJsonFixture(fixtures, 'error-rate-limit.json'))).toMatchObject({
      status: 429,
      type: 'rate_limit_error',
      disablesChannel: false,
    });
    expect(
      parseClaudeError(400, { type: 'error', error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API.' } })
        .disablesChannel,
    ).toBe(true);
    expect(parseClaudeError(502, 'Bad Gateway')).toMatchObject({ message: 'Bad Gateway', disablesChannel: false });
  });
});
