import { describe, expect, it } from 'vitest';
import { parseAwsKey } from './aws-key.ts';
import { bedrockModelId } from './bedrock-model-id.ts';
import { parseInvokeUrl } from './bedrock-transport.ts';
import { parseBedrockError } from './parse-bedrock-error.ts';

describe('AWS channel parts', () => {
  it('reads permanent and temporary credentials from the key', () => {
    expect(parseAwsKey('AKIA1|secret|us-east-1')).toEqual({ accessKeyId: 'AKIA1', secretAccessKey: 'secret', region: 'us-east-1' });
    expect(parseAwsKey('AKIA1|secret|session|eu-west-1')).toEqual({ accessKeyId: 'AKIA1', secretAccessKey: 'secret', sessionToken: 'session', region: 'eu-west-1' });
    expect(parseAwsKey('just-a-key')).toBeUndefined();
    expect(parseAwsKey('AKIA1||us-east-1')).toBeUndefined();
  });

  it('maps model names to Bedrock ids, with the cross-region profile where Bedrock requires one', () => {
    expect(bedrockModelId('claude-3-haiku-20240307', 'us-east-1')).toBe('anthropic.claude-3-haiku-20240307-v1:0');
    expect(bedrockModelId('claude-3-5-sonnet-20241022', 'us-west-2')).toBe('anthropic.claude-3-5-sonnet-20241022-v2:0');
    expect(bedrockModelId('claude-sonnet-4-20250514', 'eu-central-1')).toBe('eu.anthropic.claude-sonnet-4-20250514-v1:0');
    expect(bedrockModelId('claude-3-7-sonnet-20250219', 'ap-northeast-1')).toBe('apac.anthropic.claude-3-7-sonnet-20250219-v1:0');
    expect(bedrockModelId('us.anthropic.claude-opus-4-1-20250805-v1:0', 'us-east-1')).toBe('us.anthropic.claude-opus-4-1-20250805-v1:0');
  });

  it('splits an invoke URL back into endpoint, model and operation', () => {
    expect(parseInvokeUrl('https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke-with-response-stream')).toEqual({
      endpoint: 'https://bedrock-runtime.us-east-1.amazonaws.com',
      modelId: 'anthropic.claude-3-haiku-20240307-v1:0',
      stream: true,
    });
    expect(parseInvokeUrl('https://example.com/other')).toBeUndefined();
  });

  it('classifies Bedrock errors: dead credentials disable, throttling does not', () => {
    expect(parseBedrockError(403, { __type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' })).toMatchObject({ type: 'UnrecognizedClientException', disablesChannel: true });
    expect(parseBedrockError(429, { __type: 'ThrottlingException', message: 'Too many requests' })).toMatchObject({ status: 429, disablesChannel: false });
    expect(parseBedrockError(400, { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } })).toMatchObject({ type: 'invalid_request_error', message: 'bad' });
  });
});
