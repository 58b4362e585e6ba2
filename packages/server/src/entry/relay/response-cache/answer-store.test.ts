import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryAnswerStore } from './answer-store.ts';
import { storedSize, type CachedAnswer } from './cached-answer.ts';
import { CompiledCacheRules, readCacheRules } from './cache-rules.ts';
import { cacheKey } from './cache-key.ts';

/** A whole answer of `bodyBytes` bytes. */
function answerOf(bodyBytes: number): CachedAnswer {
  return { kind: 'whole', contentType: 'application/json', servedModel: 'm', usage: { promptTokens: 1, completionTokens: 2 }, body: Buffer.alloc(bodyBytes) };
}

describe('the in-memory answer store', () => {
  it('stays within its bytes (each answer counted as encoded), dropping the least recently used first', () => {
    const size = storedSize(answerOf(40));
    const store = new MemoryAnswerStore(size * 2 + 10);
    store.set('a', answerOf(40), 60);
    store.set('b', answerOf(40), 60);
    expect(store.get('a')).toBeDefined();
    store.set('c', answerOf(40), 60);
    expect(store.get('b')).toBeUndefined();
    expect(store.get('a')).toBeDefined();
    expect(store.bytes).toBe(size * 2);
    store.set('huge', answerOf(size * 2 + 11), 60);
    expect(store.get('huge')).toBeUndefined();
  });

  it('hands back the answer it was given, without copying its bytes', () => {
    const store = new MemoryAnswerStore(1_000);
    const answer = answerOf(10);
    store.set('a', answer, 60);
    expect(store.get('a')).toBe(answer);
  });

  it('forgets an answer once its TTL has passed', () => {
    let now = 1_000;
    const store = new MemoryAnswerStore(1_000, () => now);
    store.set('a', answerOf(10), 5);
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
    const base = { path: '/v1/chat/completions', model: 'm', stream: false, groups: 'default', userId: undefined };
    const one = cacheKey({ ...base, body: { model: 'm', temperature: 0, messages: [{ role: 'user', content: 'hi' }], user: 'a' } });
    const same = cacheKey({ ...base, body: { messages: [{ content: 'hi', role: 'user' }], user: 'b', temperature: 0, model: 'm' } });
    expect(same).toBe(one);
    expect(cacheKey({ ...base, body: { model: 'm', temperature: 1, messages: [{ role: 'user', content: 'hi' }] } })).not.toBe(one);
    expect(cacheKey({ ...base, stream: true, body: { model: 'm', temperature: 0, messages: [{ role: 'user', content: 'hi' }] } })).not.toBe(one);
    expect(cacheKey({ ...base, userId: 7, body: { model: 'm', temperature: 0, messages: [{ role: 'user', content: 'hi' }] } })).not.toBe(one);
    expect(cacheKey({ ...base, groups: 'vip', body: { model: 'm', temperature: 0, messages: [{ role: 'user', content: 'hi' }] } })).not.toBe(one);
  });

  it('keeps the text a key is made of (a change makes every answer Redis holds unreachable: deliberate only)', () => {
    // Nested and unsorted objects, a dropped identifying field only at the top, undefined members, escapes.
    const body = {
      z: [1, null, 'x', { b: undefined, a: [true, false, 1.5e300] }],
      'k"ey': '\u2028',
      user: 'u',
      metadata: { a: 1 },
      a: {},
      b: [],
      c: [[]],
      n: { user: 'kept inside' },
    };
    const text =
      '/v1/chat/completions\nm\ns\n7\nvip,default\n{"a":{},"b":[],"c":[[]],"k\\"ey":"\u2028","n":{"user":"kept inside"},"z":[1,null,"x",{"a":[true,false,1.5e+300]}]}';
    expect(cacheKey({ path: '/v1/chat/completions', model: 'm', stream: true, groups: 'vip,default', body, userId: 7 })).toBe(
      createHash('sha256').update(text).digest('base64url'),
    );
  });
});
