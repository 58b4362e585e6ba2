import { describe, expect, it } from 'vitest';
import { maskSecrets } from '../../../core/http/relay-error.ts';
import { readRelayKey } from './relay-key.ts';

describe('relay key parsing', () => {
  it('reads Authorization with or without Bearer and sk-', () => {
    expect(readRelayKey({ authorization: 'Bearer sk-abc123' }, '/v1/chat/completions', {})).toEqual({ key: 'abc123', pinnedChannelId: undefined });
    expect(readRelayKey({ authorization: 'abc123' }, '/v1/chat/completions', {})).toEqual({ key: 'abc123', pinnedChannelId: undefined });
    expect(readRelayKey({}, '/v1/chat/completions', {})).toBeUndefined();
  });

  it('reads a channel pin suffix', () => {
    expect(readRelayKey({ authorization: 'Bearer sk-abc123-17' }, '/v1/chat/completions', {})).toEqual({ key: 'abc123', pinnedChannelId: 17 });
  });

  it('takes x-api-key on the model list and ?key= on Gemini paths only', () => {
    expect(readRelayKey({ 'x-api-key': 'sk-xyz' }, '/v1/models', {})?.key).toBe('xyz');
    expect(readRelayKey({ 'x-api-key': 'sk-xyz' }, '/v1/chat/completions', {})).toBeUndefined();
    expect(readRelayKey({}, '/v1beta/models/gemini:generateContent', { key: 'sk-gem' })?.key).toBe('gem');
  });
});

describe('secret masking', () => {
  it('masks channel keys, key-shaped strings and credential parameters', () => {
    const text = 'Incorrect API key provided: sk-proj-abcdefghijkl at https://api.example.com/v1?key=AIzaSecret123 with chan-key-1';
    const masked = maskSecrets(text, ['chan-key-1']);
    expect(masked).not.toContain('abcdefghijkl');
    expect(masked).not.toContain('AIzaSecret123');
    expect(masked).not.toContain('chan-key-1');
    expect(masked).toContain('?key=***');
  });
});
