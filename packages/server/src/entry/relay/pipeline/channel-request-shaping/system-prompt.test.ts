import { describe, expect, it } from 'vitest';
import { applySystemPrompt } from './system-prompt.ts';

const keep = { text: 'Be brief.', override: false };
const prefix = { text: 'Be brief.', override: true };

describe('channel system prompt on OpenAI chat bodies', () => {
  it('adds a system message first when the caller sent none', () => {
    const body: Record<string, unknown> = { messages: [{ role: 'user', content: 'hi' }] };
    expect(applySystemPrompt(body, keep, 'openai-chat')).toBe(true);
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it("keeps the caller's own system message unless override is on", () => {
    const body: Record<string, unknown> = { messages: [{ role: 'system', content: 'Mine.' }] };
    expect(applySystemPrompt(body, keep, 'openai-chat')).toBe(false);
    expect(body.messages).toEqual([{ role: 'system', content: 'Mine.' }]);
  });

  it("with override, puts the channel's text before the caller's (string, or first part of a list)", () => {
    const text: Record<string, unknown> = {
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'system', content: 'Mine.' },
      ],
    };
    applySystemPrompt(text, prefix, 'openai-chat');
    expect(text.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'system', content: 'Be brief.\nMine.' },
    ]);
    const parts: Record<string, unknown> = { messages: [{ role: 'system', content: [{ type: 'text', text: 'Mine.' }] }] };
    applySystemPrompt(parts, prefix, 'openai-chat');
    expect(parts.messages).toEqual([
      {
        role: 'system',
        content: [
          { type: 'text', text: 'Be brief.' },
          { type: 'text', text: 'Mine.' },
        ],
      },
    ]);
  });
});

describe('channel system prompt on Claude bodies', () => {
  it('sets system when absent, keeps the caller one without override', () => {
    const absent: Record<string, unknown> = { messages: [] };
    applySystemPrompt(absent, keep, 'claude');
    expect(absent.system).toBe('Be brief.');
    const own: Record<string, unknown> = { system: 'Mine.' };
    expect(applySystemPrompt(own, keep, 'claude')).toBe(false);
    expect(own.system).toBe('Mine.');
  });

  it('with override, prefixes a string (trimmed; an empty one is replaced) or puts a text block first', () => {
    const text: Record<string, unknown> = { system: '  Mine. ' };
    applySystemPrompt(text, prefix, 'claude');
    expect(text.system).toBe('Be brief.\nMine.');
    const empty: Record<string, unknown> = { system: ' ' };
    applySystemPrompt(empty, prefix, 'claude');
    expect(empty.system).toBe('Be brief.');
    const blocks: Record<string, unknown> = { system: [{ type: 'text', text: 'Mine.', cache_control: { type: 'ephemeral' } }] };
    applySystemPrompt(blocks, prefix, 'claude');
    expect(blocks.system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'Mine.', cache_control: { type: 'ephemeral' } },
    ]);
  });
});
