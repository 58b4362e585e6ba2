import type { SystemStatus } from '@switchboard/contracts';
import { describe, expect, it } from 'vitest';
import { chat2LinkTemplate, chatLinksOf, chatLinkTemplates, fillChatLink, isWebLink } from './chat-links.ts';

const status = (fields: Partial<SystemStatus> & { chats?: unknown }) => fields as SystemStatus;

describe('chatLinksOf', () => {
  it('reads the one-entry objects of Chats in order', () => {
    expect(chatLinksOf(status({ chats: [{ A: 'https://a/{key}' }, { B: 'https://b' }] }))).toEqual([
      { name: 'A', url: 'https://a/{key}' },
      { name: 'B', url: 'https://b' },
    ]);
  });

  it('tells an empty option from a broken one', () => {
    expect(chatLinksOf(undefined)).toEqual([]);
    expect(chatLinksOf(status({ chats: [] }))).toEqual([]);
    for (const broken of [{ A: 'x' }, [{ A: 1 }], ['https://a'], [{}], [[]], [{ A: '' }], 'text'])
      expect(chatLinksOf(status({ chats: broken }))).toBe('invalid');
  });

  it('leaves out links a browser must not follow, already stored or imported ones included', () => {
    const chats = [
      { Evil: 'javascript:alert(document.cookie)' },
      { Lobe: 'https://lobe/?k={key}' },
      { Data: 'data:text/html,x' },
      { Cherry: 'cherrystudio://x' },
      { 'Fluent Read': 'fluentread' },
    ];
    expect(chatLinksOf(status({ chats }))).toEqual([
      { name: 'Lobe', url: 'https://lobe/?k={key}' },
      { name: 'Cherry', url: 'cherrystudio://x' },
    ]);
    expect(chatLinkTemplates(status({ chats: [{ Evil: ' JavaScript:alert(1)' }] }))).toEqual([]);
  });

  it('does not turn ChatLink or ChatLink2 into menu entries (new-api reads only Chats there)', () => {
    expect(chatLinksOf(status({ chats: [], chat_link: 'https://next.example', chat_link2: 'https://other.example' }))).toEqual([]);
  });

  it('gives menus no links when the option is broken', () => {
    expect(chatLinkTemplates(status({ chats: { A: 'x' } }))).toEqual([]);
    expect(chatLinkTemplates(status({ chats: [{ A: 'https://a' }] }))).toEqual([{ name: 'A', url: 'https://a' }]);
  });
});

describe('chat2LinkTemplate', () => {
  it('builds the Next-Web settings link from ChatLink first', () => {
    expect(chat2LinkTemplate(status({ chat_link: 'https://next.example/', chats: [{ A: 'https://a' }] }))).toEqual({
      name: 'ChatLink',
      url: 'https://next.example/#/?settings={"key":"{key}","url":"{address}"}',
    });
  });

  it('else takes the first front end a browser can open', () => {
    expect(chat2LinkTemplate(status({ chats: [{ Cherry: 'cherrystudio://x?data={cherryConfig}' }, { Lobe: 'https://lobe/?k={key}' }] }))).toEqual({
      name: 'Lobe',
      url: 'https://lobe/?k={key}',
    });
    expect(chat2LinkTemplate(status({ chats: [{ Cherry: 'cherrystudio://x' }] }))).toBeUndefined();
    expect(chat2LinkTemplate(status({ chats: 'broken' }))).toBe('invalid');
  });

  it('never redirects to a ChatLink that is not a web page', () => {
    expect(chat2LinkTemplate(status({ chat_link: 'javascript:alert(1)//', chats: [{ Lobe: 'https://lobe/?k={key}' }] }))).toEqual({
      name: 'Lobe',
      url: 'https://lobe/?k={key}',
    });
    expect(chat2LinkTemplate(status({ chat_link: 'javascript:alert(1)//', chats: [] }))).toBeUndefined();
  });
});

describe('fillChatLink', () => {
  it('puts in the sk- key and the URL-encoded address', () => {
    expect(fillChatLink('https://chat/#/?settings={"key":"{key}","url":"{address}"}', 'abc', 'https://gw.example')).toBe(
      'https://chat/#/?settings={"key":"sk-abc","url":"https%3A%2F%2Fgw.example"}',
    );
  });

  it('takes the key with or without its sk- prefix', () => {
    expect(fillChatLink('https://chat/?k={key}', 'sk-abc', 'x')).toBe('https://chat/?k=sk-abc');
  });

  it('fills every occurrence', () => {
    expect(fillChatLink('{address}|{address}|{key}|{key}', 'k', 'http://127.0.0.1:3000')).toBe(
      'http%3A%2F%2F127.0.0.1%3A3000|http%3A%2F%2F127.0.0.1%3A3000|sk-k|sk-k',
    );
  });

  it("builds Cherry Studio's provider config and leaves the other placeholders alone", () => {
    const url = fillChatLink('cherrystudio://providers/api-keys?v=1&data={cherryConfig}&k={key}', 'abc', 'https://网关.example');
    const data = decodeURIComponent(url.split('data=')[1]?.split('&')[0] ?? '');
    const json = new TextDecoder().decode(Uint8Array.from(atob(data), (char) => char.charCodeAt(0)));
    expect(JSON.parse(json)).toEqual({ id: 'new-api', baseUrl: 'https://网关.example', apiKey: 'sk-abc' });
    expect(url.endsWith('&k={key}')).toBe(true);
  });
});

describe('isWebLink', () => {
  it('tells web pages from desktop app schemes', () => {
    expect(isWebLink('https://a')).toBe(true);
    expect(isWebLink('HTTP://a')).toBe(true);
    expect(isWebLink('cherrystudio://a')).toBe(false);
  });
});
