import { describe, expect, it } from 'vitest';
import { storedStream } from './payload-body.ts';
import { reassembleStream } from './stream-reassembly.ts';

const sse = (...objects: unknown[]) => objects.map((object) => `data: ${JSON.stringify(object)}\n\n`).join('');
const named = (...events: Array<[string, unknown]>) => events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');

describe('stream reassembly', () => {
  it('joins OpenAI chat chunks into one chat.completion with its text, reasoning, tool calls and usage', () => {
    const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o' };
    const text =
      sse(
        { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
        { ...base, choices: [{ index: 0, delta: { reasoning_content: 'Think' }, finish_reason: null }] },
        { ...base, choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }] },
        { ...base, choices: [{ index: 0, delta: { content: ' world' }, finish_reason: null }] },
        {
          ...base,
          choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_', arguments: '{"ci' } }] } }],
        },
        { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: 'weather', arguments: 'ty":"Paris"}' } }] } }] },
        { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        { ...base, choices: [], usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } },
      ) + 'data: [DONE]\n\n';
    expect(reassembleStream(text)).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1700000000,
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Hello world',
            reasoning_content: 'Think',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
    });
  });

  it('reads events split anywhere across chunks, with CRLF line ends', () => {
    const text = sse({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'A' } }] }).replace(/\n/g, '\r\n');
    expect(reassembleStream(text)).toMatchObject({ choices: [{ message: { content: 'A' } }] });
  });

  it('joins legacy completions chunks', () => {
    const chunk = (text: string, finish: string | null) => ({
      id: 'cmpl-1',
      object: 'text_completion',
      model: 'm',
      choices: [{ index: 0, text, finish_reason: finish }],
    });
    expect(reassembleStream(sse(chunk('Once', null), chunk(' upon', 'stop')))).toMatchObject({
      object: 'text_completion',
      choices: [{ index: 0, text: 'Once upon', finish_reason: 'stop' }],
    });
  });

  it('takes the whole response of a Responses API stream from response.completed', () => {
    const response = { id: 'resp_1', object: 'response', status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hi' }] }] };
    const text = named(
      ['response.created', { type: 'response.created', response: { id: 'resp_1', status: 'in_progress' } }],
      ['response.output_text.delta', { type: 'response.output_text.delta', delta: 'Hi' }],
      ['response.completed', { type: 'response.completed', response }],
    );
    expect(reassembleStream(text)).toEqual(response);
    expect(reassembleStream(named(['response.output_text.delta', { type: 'response.output_text.delta', delta: 'Hi' }]))).toEqual({
      object: 'response',
      output_text: 'Hi',
    });
  });

  it('rebuilds an Anthropic message with its text, thinking and tool input', () => {
    const text = named(
      [
        'message_start',
        { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [], usage: { input_tokens: 9 } } },
      ],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm' } }],
      ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hel' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'lo' } }],
      ['content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'tu_1', name: 'calc', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"a":' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '1}' } }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 4 } }],
      ['message_stop', { type: 'message_stop' }],
    );
    expect(reassembleStream(text)).toEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude',
      content: [
        { type: 'thinking', thinking: 'Hmm' },
        { type: 'text', text: 'Hello' },
        { type: 'tool_use', id: 'tu_1', name: 'calc', input: { a: 1 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 9, output_tokens: 4 },
    });
  });

  it('joins Gemini chunks, as SSE and as the growing JSON array', () => {
    const chunks = [
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Bon' }] }, index: 0 }], modelVersion: 'gemini-x' },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'jour' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { totalTokenCount: 8 } },
    ];
    const expected = {
      candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'Bonjour' }] }, finishReason: 'STOP' }],
      usageMetadata: { totalTokenCount: 8 },
      modelVersion: 'gemini-x',
    };
    expect(reassembleStream(sse(...chunks))).toEqual(expected);
    expect(reassembleStream(`[${chunks.map((chunk) => JSON.stringify(chunk)).join(',\r\n')}]`)).toEqual(expected);
  });

  it('keeps an error frame of a chat stream', () => {
    const text = sse(
      { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Par' } }] },
      { error: { message: 'upstream failed', type: 'upstream_error' } },
    );
    expect(reassembleStream(text)).toMatchObject({ choices: [{ message: { content: 'Par' } }], error: { message: 'upstream failed' } });
  });

  it('answers undefined for text it does not recognise, which is then stored raw, redacted and capped', () => {
    expect(reassembleStream('event: ping\n\n')).toBeUndefined();
    expect(reassembleStream('not a stream')).toBeUndefined();
    const stored = storedStream(`data: plain text with sk-${'q'.repeat(40)}\n\n${'z'.repeat(500)}`, false, 100);
    expect(stored.text).toContain('[redacted]');
    expect(stored.truncated).toBe(true);
  });

  it('stores a reassembled answer capped and redacted, and flags a stream cut in memory as truncated', () => {
    const text = sse({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: `key sk-${'k'.repeat(40)}` } }] });
    const stored = storedStream(text, true, 10_000);
    expect(stored.truncated).toBe(true);
    expect(JSON.parse(stored.text)).toMatchObject({ object: 'chat.completion', choices: [{ message: { content: 'key [redacted]' } }] });
  });
});
