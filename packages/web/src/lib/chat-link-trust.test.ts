import { beforeEach, describe, expect, it } from 'vitest';
import { isTrustedKeyRecipient, keyRecipientOf, keyRecipientToConfirm, trustKeyRecipient } from './chat-link-trust.ts';

const storage = new Map<string, string>();
beforeEach(() => {
  storage.clear();
  Object.assign(globalThis, {
    localStorage: { getItem: (key: string) => storage.get(key) ?? null, setItem: (key: string, value: string) => storage.set(key, value) },
  });
});

describe('chat links that carry the key', () => {
  it('names the host the key would go to', () => {
    expect(keyRecipientOf('https://chat.example.com/#/?key={key}', 'https://chat.example.com/#/?key=sk-abc', 'gw.local:3000')).toBe('chat.example.com');
  });

  it('asks nothing for a link without the key, one on the console itself, or a desktop app on this machine', () => {
    expect(
      keyRecipientOf('cherrystudio://providers/api-keys?v=1&data={cherryConfig}', 'cherrystudio://providers/api-keys?v=1&data=eyJ', 'gw.local:3000'),
    ).toBeUndefined();
    expect(keyRecipientOf('https://chat.example.com/', 'https://chat.example.com/', 'gw.local:3000')).toBeUndefined();
    expect(keyRecipientOf('https://gw.local:3000/chat?k={key}', 'https://gw.local:3000/chat?k=sk-abc', 'gw.local:3000')).toBeUndefined();
    expect(keyRecipientOf('{key}', 'sk-abc', 'gw.local:3000')).toBeUndefined();
  });

  it('stops asking for a host once told not to, for that host only', () => {
    const template = 'https://chat.example.com/?key={key}';
    expect(keyRecipientToConfirm(template, 'https://chat.example.com/?key=sk-1', 'gw.local')).toBe('chat.example.com');
    trustKeyRecipient('chat.example.com');
    trustKeyRecipient('chat.example.com');
    expect(JSON.parse(storage.get('chatLinkTrustedHosts') ?? '')).toEqual(['chat.example.com']);
    expect(keyRecipientToConfirm(template, 'https://chat.example.com/?key=sk-1', 'gw.local')).toBeUndefined();
    expect(keyRecipientToConfirm('https://other.example/?key={key}', 'https://other.example/?key=sk-1', 'gw.local')).toBe('other.example');
    storage.set('chatLinkTrustedHosts', 'not json');
    expect(isTrustedKeyRecipient('chat.example.com')).toBe(false);
  });
});
