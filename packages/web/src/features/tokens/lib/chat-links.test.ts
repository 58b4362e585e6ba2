import type { SystemStatus } from '@switchboard/contracts';
import { describe, expect, it } from 'vitest';
import { chatLinksOf, fillChatLink } from './chat-links.ts';

const status = (chats: unknown) => ({ chats }) as SystemStatus;

describe('chatLinksOf', () => {
  it('reads the one-entry objects in order', () => {
    expect(chatLinksOf(status([{ A: 'https://a/{key}' }, { B: 'https://b' }]))).toEqual([
      { name: 'A', url: 'https://a/{key}' },
      { name: 'B', url: 'https://b' },
    ]);
  });

  it('tells an empty option from a broken one', () => {
    expect(chatLinksOf(status(undefined))).toEqual([]);
    expect(chatLinksOf(status({ A: 'x' }))).toBe('invalid');
    expect(chatLinksOf(status([{ A: 1 }]))).toBe('invalid');
  });
});

describe('fillChatLink', () => {
  it('puts in the key and the encoded address', () => {
    expect(fillChatLink('https://chat/#/?settings={"key":"{key}","url":"{address}"}', 'sk-abc', 'https://gw.example')).toBe('https://chat/#/?settings={"key":"sk-abc","url":"https%3A%2F%2Fgw.example"}');
  });

  it("builds Cherry Studio's provider config", () => {
    const url = fillChatLink('cherrystudio://providers/api-keys?v=1&data={cherryConfig}', 'sk-abc', 'https://gw.example');
    const data = decodeURIComponent(url.split('data=')[1] ?? '');
    expect(JSON.parse(atob(data))).toEqual({ id: 'new-api', baseUrl: 'https://gw.example', apiKey: 'sk-abc' });
  });
});
