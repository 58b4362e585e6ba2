import { describe, expect, it } from 'vitest';
import { readJsonFixture } from './testing/fixtures.ts';
import { UnconvertibleAnswer } from '../../provider.ts';
import { convertChatResponse } from './convert-chat-response.ts';

const context = { model: 'claude-sonnet-4-20250514', upstreamModel: 'claude-sonnet-4-20250514', requestId: 'req-1', createdAt: 1_700_000_000 };
const recorded = new URL('../../conformance/native/__fixtures__/', import.meta.url);

describe('a Claude answer converted for an OpenAI caller', () => {
  it('keeps the text and usage of an answer whose server-tool result carries an object as content', () => {
    const answer = readJsonFixture(recorded, 'anthropic-web-fetch-tool.1.json') as { content: { type: string; text?: string }[] };
    const converted = convertChatResponse(answer, context);
    const text = answer.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    expect(text.length).toBeGreaterThan(0);
    expect(converted.body.choices[0]?.message.content).toBe(text);
    expect(converted.usage).toEqual({ promptTokens: 4234, completionTokens: 462, cachedTokens: 0, cacheCreationTokens: 0 });
  });

  it('refuses an answer whose content cannot be read, carrying the upstream usage to be billed', () => {
    const broken = {
      type: 'message',
      content: 'not a list of blocks',
      usage: { input_tokens: 950, output_tokens: 12, server_tool_use: { web_search_requests: 1 } },
    };
    let thrown: unknown;
    try {
      convertChatResponse(broken, context);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnconvertibleAnswer);
    expect((thrown as UnconvertibleAnswer).usage).toEqual({
      promptTokens: 950,
      completionTokens: 12,
      cachedTokens: 0,
      cacheCreationTokens: 0,
      webSearchRequests: 1,
    });
  });
});
