import { describe, expect, it } from 'vitest';
import { safeChatLink, safeWebLink } from './safe-url.ts';

const scriptLinks = [
  'javascript:alert(1)',
  ' JavaScript:alert(1)',
  'java\tscript:alert(1)',
  '\u0000javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
];

describe('safeWebLink', () => {
  it('passes http(s) links through unchanged', () => {
    expect(safeWebLink('https://shop.example/codes?a=1')).toBe('https://shop.example/codes?a=1');
    expect(safeWebLink('HTTP://127.0.0.1:3000')).toBe('HTTP://127.0.0.1:3000');
  });

  it('refuses every other scheme, relative links and nothing at all', () => {
    for (const link of [...scriptLinks, 'cherrystudio://providers', '/relative', 'shop.example', '', undefined])
      expect(safeWebLink(link), String(link)).toBeUndefined();
  });
});

describe('safeChatLink', () => {
  it("allows web pages and the desktop apps of new-api's default chat links", () => {
    for (const link of [
      'https://chat.example/?k={key}',
      'cherrystudio://providers/api-keys?v=1&data={cherryConfig}',
      'aionui://provider/add?v=1',
      'ama://set-api-key?server={address}',
      'opencat://team/join?domain={address}',
      'ccswitch://v1/import',
    ]) {
      expect(safeChatLink(link)).toBe(link);
    }
  });

  it('refuses script-running schemes and bare words', () => {
    for (const link of [...scriptLinks, 'fluentread', 'ccswitch', 'unknownapp://x']) expect(safeChatLink(link), link).toBeUndefined();
  });
});
