import { describe, expect, it } from 'vitest';
import { SharedTokenCache, type FetchedToken } from './shared-token-cache.ts';

describe('shared token cache', () => {
  it('fetches once for concurrent callers, reuses the token until its refresh time, then fetches again', async () => {
    let now = 1000;
    const cache = new SharedTokenCache(() => now);
    let fetches = 0;
    const fetch = async (): Promise<FetchedToken> => ({ token: `token-${(fetches += 1)}`, refreshAt: now + 60 });
    expect(await Promise.all([cache.get('k', fetch), cache.get('k', fetch), cache.get('k', fetch)])).toEqual(['token-1', 'token-1', 'token-1']);
    now += 59;
    expect(await cache.get('k', fetch)).toBe('token-1');
    now += 1;
    expect(await cache.get('k', fetch)).toBe('token-2');
    expect(await cache.get('other', fetch)).toBe('token-3');
  });

  it('forgets a token the vendor refused, but not a newer one', async () => {
    const cache = new SharedTokenCache(() => 0);
    let fetches = 0;
    const fetch = async (): Promise<FetchedToken> => ({ token: `token-${(fetches += 1)}`, refreshAt: 100 });
    expect(await cache.get('k', fetch)).toBe('token-1');
    cache.forget('k', 'token-1');
    expect(await cache.get('k', fetch)).toBe('token-2');
    cache.forget('k', 'token-1');
    expect(await cache.get('k', fetch)).toBe('token-2');
  });

  it('lets a caller stop waiting without failing the fetch the others share, and caches nothing from a failed fetch', async () => {
    const cache = new SharedTokenCache(() => 0);
    const slow = Promise.withResolvers<FetchedToken>();
    const leaving = new AbortController();
    const left = cache.get('k', () => slow.promise, leaving.signal);
    const staying = cache.get('k', () => Promise.reject(new Error('not called: the fetch is shared')));
    leaving.abort(new Error('caller left'));
    await expect(left).rejects.toThrow('caller left');
    slow.resolve({ token: 'shared', refreshAt: 10 });
    expect(await staying).toBe('shared');

    await expect(cache.get('broken', () => Promise.reject(new Error('vendor down')))).rejects.toThrow('vendor down');
    expect(await cache.get('broken', async () => ({ token: 'recovered', refreshAt: 10 }))).toBe('recovered');
  });
});
