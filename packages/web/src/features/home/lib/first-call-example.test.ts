import { describe, expect, it } from 'vitest';
import { firstCallCurl, firstModelOf } from './first-call-example.ts';

describe('the first call example', () => {
  it('calls this address with the key and model given, as one paste', () => {
    expect(firstCallCurl('http://127.0.0.1:3000/', 'abc123', 'gpt-4o')).toBe(
      [
        'curl http://127.0.0.1:3000/v1/chat/completions \\',
        '  -H "Authorization: Bearer sk-abc123" \\',
        '  -H "Content-Type: application/json" \\',
        `  -d '{"model":"gpt-4o","messages":[{"role":"user","content":"Hello"}]}'`,
      ].join('\n'),
    );
  });

  it('leaves a masked or missing key as a placeholder rather than sending stars', () => {
    expect(firstCallCurl('https://gw.example', 'abcd****wxyz', undefined)).toContain('Bearer sk-…"');
    expect(firstCallCurl('https://gw.example', undefined, undefined)).toContain('"model":"gpt-4o-mini"');
  });

  it("reads a channel's first model", () => {
    expect(firstModelOf(' , gpt-4o ,gpt-4o-mini')).toBe('gpt-4o');
    expect(firstModelOf('')).toBeUndefined();
  });
});
