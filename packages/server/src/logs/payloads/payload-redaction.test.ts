import { describe, expect, it } from 'vitest';
import { redactedMark, redactSecrets, redactSecretsInLooseText, redactSecretsInText } from './payload-redaction.ts';

describe('payload redaction', () => {
  it('replaces credential-named fields at any depth, whatever their spelling or value type', () => {
    const body = {
      model: 'gpt-4o',
      max_tokens: 10,
      api_key: 'abc',
      headers: { Authorization: 'Bearer xyz', 'X-Api-Key': 'k1', 'x-goog-api-key': 'g1' },
      messages: [{ role: 'user', content: 'hi', metadata: { apiKey: 'a2', token: 12345, password: ['p'], secret: { nested: true } } }],
      tools: [{ key: 'k', key_id: 'stays', tokens: 3 }],
    };
    expect(redactSecrets(body)).toEqual({
      model: 'gpt-4o',
      max_tokens: 10,
      api_key: redactedMark,
      headers: { Authorization: redactedMark, 'X-Api-Key': redactedMark, 'x-goog-api-key': redactedMark },
      messages: [{ role: 'user', content: 'hi', metadata: { apiKey: redactedMark, token: redactedMark, password: redactedMark, secret: redactedMark } }],
      tools: [{ key: redactedMark, key_id: 'stays', tokens: 3 }],
    });
  });

  it('replaces sk- keys and bearer credentials inside any text, leaving the rest', () => {
    const key = `sk-${'a1B2'.repeat(12)}`;
    expect(redactSecretsInText(`my key is ${key}, use it`)).toBe(`my key is ${redactedMark}, use it`);
    expect(redactSecretsInText('sk-proj-AbCdEfGh12345678 and sk-ant-api03-xyzxyzxyz')).toBe(`${redactedMark} and ${redactedMark}`);
    expect(redactSecretsInText('header: Bearer eyJhbGciOi.J9abc')).toBe(`header: Bearer ${redactedMark}`);
    expect(redactSecretsInText('a task-list and sk-short stay')).toBe('a task-list and sk-short stay');
    expect(redactSecrets({ messages: [{ content: [{ type: 'text', text: `use ${key}` }] }] })).toEqual({
      messages: [{ content: [{ type: 'text', text: `use ${redactedMark}` }] }],
    });
  });

  it('redacts credential fields in text that is not whole JSON (a body cut at its limit)', () => {
    const cut = '{"model":"m","api_key" : "secret-value","Authorization":"Bearer abcdefghijk","content":"Hello, wor';
    expect(redactSecretsInLooseText(cut)).toBe(`{"model":"m","api_key" : "${redactedMark}","Authorization":"${redactedMark}","content":"Hello, wor`);
    // A value cut in the middle is still hidden.
    expect(redactSecretsInLooseText('{"password":"hunter2 and more')).toBe(`{"password":"${redactedMark}"`);
  });

  it('leaves numbers, booleans and null alone and keeps arrays in order', () => {
    expect(redactSecrets([1, true, null, 'x', { n: 2 }])).toEqual([1, true, null, 'x', { n: 2 }]);
  });
});
