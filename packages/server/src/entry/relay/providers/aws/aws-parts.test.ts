import { describe, expect, it } from 'vitest';
import { defaultMaxTokens } from '../claude/convert-chat-request.ts';
import { parseAwsKey } from './aws-key.ts';
import { bedrockModelId } from './bedrock-model-id.ts';
import { parseInvokeUrl } from './bedrock-transport.ts';
import { parseBedrockError } from './parse-bedrock-error.ts';
import { bedrockErrorBody } from './testing/fake-bedrock.ts';

describe('AWS channel parts', () => {
  it('reads permanent and temporary credentials from the key', () => {
    expect(parseAwsKey('AKIA1|secret|us-east-1')).toEqual({ accessKeyId: 'AKIA1', secretAccessKey: 'secret', region: 'us-east-1' });
    expect(parseAwsKey('AKIA1|secret|session|eu-west-1')).toEqual({
      accessKeyId: 'AKIA1',
      secretAccessKey: 'secret',
      sessionToken: 'session',
      region: 'eu-west-1',
    });
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

  it('maps the Claude 4 and 4.5 generations and their aliases, through the profile Bedrock requires', () => {
    expect(bedrockModelId('claude-opus-4-1', 'us-east-1')).toBe('us.anthropic.claude-opus-4-1-20250805-v1:0');
    expect(bedrockModelId('claude-sonnet-4-0', 'eu-west-1')).toBe('eu.anthropic.claude-sonnet-4-20250514-v1:0');
    expect(bedrockModelId('claude-sonnet-4-5-20250929', 'us-west-2')).toBe('us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(bedrockModelId('claude-sonnet-4-5', 'eu-central-1')).toBe('eu.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(bedrockModelId('claude-haiku-4-5-20251001', 'us-east-1')).toBe('us.anthropic.claude-haiku-4-5-20251001-v1:0');
    expect(bedrockModelId('claude-haiku-4-5', 'ap-northeast-1')).toBe('global.anthropic.claude-haiku-4-5-20251001-v1:0');
    expect(bedrockModelId('claude-opus-4-5-20251101', 'us-east-2')).toBe('us.anthropic.claude-opus-4-5-20251101-v1:0');
    expect(bedrockModelId('claude-opus-4-5', 'ap-southeast-2')).toBe('global.anthropic.claude-opus-4-5-20251101-v1:0');
  });

  it('defaults max_tokens to 4,096 for Claude 3 under its Bedrock and Vertex names too', () => {
    for (const model of [
      'claude-3-haiku-20240307',
      'anthropic.claude-3-haiku-20240307-v1:0',
      'us.anthropic.claude-3-opus-20240229-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-sonnet-20240229-v1:0',
      'claude-3-haiku@20240307',
    ]) {
      expect(defaultMaxTokens(model), model).toBe(4096);
    }
    for (const model of [
      'anthropic.claude-3-5-haiku-20241022-v1:0',
      'us.anthropic.claude-3-7-sonnet-20250219-v1:0',
      'anthropic.claude-sonnet-4-5-20250929-v1:0',
      'claude-3-5-sonnet-v2@20241022',
    ]) {
      expect(defaultMaxTokens(model), model).toBe(8192);
    }
  });

  it('splits an invoke URL back into endpoint, model and operation', () => {
    expect(
      parseInvokeUrl('https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke-with-response-stream'),
    ).toEqual({
      endpoint: 'https://bedrock-runtime.us-east-1.amazonaws.com',
      modelId: 'anthropic.claude-3-haiku-20240307-v1:0',
      stream: true,
    });
    expect(parseInvokeUrl('https://example.com/other')).toBeUndefined();
  });

  it('classifies Bedrock errors: dead credentials disable, throttling does not', () => {
    // The transport folds the exception name (x-amzn-ErrorType) into the recorded body as `__type`.
    const asTransportGivesIt = (name: Parameters<typeof bedrockErrorBody>[0]) => {
      const { status, type, body } = bedrockErrorBody(name);
      return parseBedrockError(status, { __type: type, ...(body as object) });
    };
    expect(asTransportGivesIt('unrecognizedClient')).toMatchObject({
      status: 403,
      type: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
      disablesChannel: true,
    });
    expect(asTransportGivesIt('throttling')).toMatchObject({ status: 429, type: 'ThrottlingException', disablesChannel: false });
    expect(asTransportGivesIt('validation')).toMatchObject({ status: 400, type: 'ValidationException', disablesChannel: false });
    expect(parseBedrockError(400, { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } })).toMatchObject({
      type: 'invalid_request_error',
      message: 'bad',
    });
  });
});
