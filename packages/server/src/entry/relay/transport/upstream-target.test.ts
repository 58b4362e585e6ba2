import { describe, expect, it } from 'vitest';
import { rememberedTargets, upstreamTarget } from './upstream-target.ts';

describe('upstreamTarget', () => {
  it('splits a URL into the origin and the path with its query, as the URL parser normalises them', () => {
    expect(upstreamTarget('https://api.example.com/v1/chat/completions')).toEqual({ origin: 'https://api.example.com', path: '/v1/chat/completions' });
    expect(upstreamTarget('http://127.0.0.1:8080/v1beta/models/gemini-pro:generateContent?key=abc&alt=sse')).toEqual({
      origin: 'http://127.0.0.1:8080',
      path: '/v1beta/models/gemini-pro:generateContent?key=abc&alt=sse',
    });
    // The default port and user info leave the origin; dot segments and spaces are resolved and encoded.
    expect(upstreamTarget('https://user:pass@Example.COM:443/a/../b c')).toEqual({ origin: 'https://example.com', path: '/b%20c' });
    expect(upstreamTarget('https://example.com')).toEqual({ origin: 'https://example.com', path: '/' });
  });

  it('answers the same target for a URL seen before', () => {
    const first = upstreamTarget('https://memo.example.com/v1/embeddings');
    expect(upstreamTarget('https://memo.example.com/v1/embeddings')).toBe(first);
  });

  it('refuses what is not http or https, and throws on text that is not a URL', () => {
    expect(upstreamTarget('ftp://example.com/file')).toBeUndefined();
    expect(upstreamTarget('file:///etc/passwd')).toBeUndefined();
    expect(() => upstreamTarget('not a url')).toThrow(TypeError);
  });

  it('remembers a bounded number of URLs', () => {
    for (let index = 0; index < 5000; index += 1) upstreamTarget(`https://bound.example.com/v1/chat?request=${index}`);
    expect(rememberedTargets()).toBeLessThanOrEqual(1024);
    expect(rememberedTargets()).toBeGreaterThan(0);
  });
});
