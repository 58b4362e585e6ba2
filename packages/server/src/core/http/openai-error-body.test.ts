import { describe, expect, it } from 'vitest';
import { openAIErrorBody } from './openai-error-body.ts';

describe('openAIErrorBody', () => {
  it('writes the fields in OpenAI order, param and code only when given', () => {
    expect(JSON.stringify(openAIErrorBody({ message: 'no (request id: r1)', type: 'new_api_error', param: '', code: 'x' }))).toBe(
      '{"error":{"message":"no (request id: r1)","type":"new_api_error","param":"","code":"x"}}',
    );
    expect(JSON.stringify(openAIErrorBody({ message: 'cut', type: 'upstream_error', code: null }))).toBe(
      '{"error":{"message":"cut","type":"upstream_error","code":null}}',
    );
  });

  it('leaves an absent field out rather than setting it to undefined', () => {
    expect(Object.keys(openAIErrorBody({ message: 'm', type: 't', code: undefined }).error)).toEqual(['message', 'type']);
  });
});
