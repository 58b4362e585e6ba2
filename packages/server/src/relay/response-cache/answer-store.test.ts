import { describe, expect, it } from 'vitest';
import { MemoryAnswerStore } from './answer-store.ts';
import { CompiledCacheRules, readCacheRules } from './cache-rules.ts';
import { cacheKey } from './cache-key.ts';

describe('the in-memory answer store', () => {
  it('stays within its bytes, dropping the least recently used first', () => {
    const store = new MemoryAnswerStore(100);
    store.set('a', Buffer.alloc(40), 60);
    store.set('b', Buffer.alloc(40), 60);
    expect(store.get('a')).toBeDefined();
    store.set('c', Buffer.alloc(40), 60);
    expect(store.get('b')).toBeUndefined();
    expect(store.get('a')).toBeDefined();
    expect(store.bytes).toBe(80);
    store.set('huge', Buffer.alloc(101), 60);
    expect(store.get('huge')).toBeUndefined();
  });

  it('forgets an answer once its TTL has passed', () => {
    let now = 1_000;
    const store = new MemoryAnswerStore(100, () => now);
    store.set('a', Buffer.alloc(10), 5);
    now += 4_999;
    expect(store.get('a')).toBeDefined();
    now += 1;
    expect(store.get('a')).toBeUndefined();
    expect(store.bytes).toBe(0);
  });
});

describe('cache rules and keys', () => {
  it('matches exact names and * patterns in order, with defaults filled in', () => {
    const read = readCacheRules([
      { model: 'gpt-4o', ttl: 10 },
      { model: 'gpt-*-mini', ttl: 20, hit_ratio: 0, scope: 'user' },
    ]);
    if (!read.ok) throw new Error('rules refused');
    const rules = new CompiledCacheRules(read.rules);
    expect(rules.match('gpt-4o')).toMatchObject({ ttl: 10, hit_ratio: 1, scope: 'shared', tools: false, n: false });
    expect(rules.match('gpt-4.1-mini')).toMatchObject({ ttl: 20, scope: 'user' });
    expect(rules.match('gpt-4o-2024')).toBeUndefined();
    expect(new CompiledCacheRules([]).empty).toBe(true);
  });

  it('keys on the request, never on the caller unless scoped to the user', () => {
    const base = { path: '/v1/chat/completions', model: 'm', stream: false, userId: undefined };
    const one = cacheKey({ ...base, body: { model: 'm', temperature: 0, messages: [{ role: 'user', content: 'hi' }], user: 'a' } });
    const same = cacheKey({ ...base, body: { messages: [{ content: 'hi', role: 'user' }], user: 'b', temperature: 0, model: 'm' } });
    expect(same).toBe(one);
    expect(cacheKey({ ...base, body: { model: 'm', temperature: 1, messages: [{ role: 'user', content: 'hi' }] } })).not.toBe(one);
    expect(cacheKey({ ...base, stream: true, body: { model: 'm', temperature: 0, messages: [{ role: 'user', content: 'hi' }] } })).not.toBe(one);
    expect(cacheKey({ ...base, userId: 7, body: { model: 'm', temperature: 0, messages: [{ role: 'user', content: 'hi' }] } })).not.toBe(one);
  });
});
