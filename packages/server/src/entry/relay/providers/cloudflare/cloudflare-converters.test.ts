import { describe, expect, it } from 'vitest';
import type { ChannelTarget } from '../../provider.ts';
import { readJsonFixture } from '../claude/testing/fixtures.ts';
import { cloudflareProvider } from './index.ts';
import { parseCloudflareError } from './parse-cloudflare-error.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const target: ChannelTarget = {
  id: 1,
  type: 39,
  baseUrl: 'https://api.cloudflare.com',
  key: 'cf-token',
  organization: '',
  other: ' 023e105f4ecef8ad9ca31a8372d0c353 ',
};

describe('Cloudflare Workers AI requests', () => {
  it('go to the account-scoped OpenAI-compatible endpoints with the bearer token, the body untouched', () => {
    const rawBody = Buffer.from('{"model":"@cf/meta/llama-3.1-8b-instruct","messages":[{"role":"user","content":"Hi"}]}');
    const relayRequest = {
      capability: 'chat' as const,
      path: '/v1/chat/completions',
      contentType: 'application/json',
      rawBody,
      body: { model: '@cf/meta/llama-3.1-8b-instruct', messages: [{ role: 'user', content: 'Hi' }] },
      bodyChanged: false,
      model: '@cf/meta/llama-3.1-8b-instruct',
      upstreamModel: '@cf/meta/llama-3.1-8b-instruct',
      stream: false,
    };
    const upstream = cloudflareProvider.chat?.buildRequest(relayRequest, target);
    expect(upstream).toMatchObject({
      url: 'https://api.cloudflare.com/client/v4/accounts/023e105f4ecef8ad9ca31a8372d0c353/ai/v1/chat/completions',
      method: 'POST',
      headers: { authorization: 'Bearer cf-token', 'content-type': 'application/json' },
      body: rawBody,
    });
    expect(cloudflareProvider.embeddings?.buildRequest({ ...relayRequest, capability: 'embeddings', path: '/v1/embeddings' }, target).url).toBe(
      'https://api.cloudflare.com/client/v4/accounts/023e105f4ecef8ad9ca31a8372d0c353/ai/v1/embeddings',
    );
    expect(cloudflareProvider.responses).toBeDefined();
    expect(cloudflareProvider.images).toBeUndefined();
  });
});

describe('Cloudflare errors', () => {
  it('disable the channel for an invalid token, a blocked account or a spent daily allocation', () => {
    expect(parseCloudflareError(401, readJsonFixture(fixtures, 'error-authentication.json'))).toEqual({
      status: 401,
      message: 'Authentication error',
      type: 'authentication_error',
      code: '10000',
      disablesChannel: true,
    });
    expect(parseCloudflareError(403, { success: false, errors: [{ code: 3023, message: 'Service unavailable for account' }] })).toMatchObject({
      disablesChannel: true,
    });
    expect(parseCloudflareError(429, readJsonFixture(fixtures, 'error-daily-allocation.json'))).toMatchObject({ code: '3036', disablesChannel: true });
  });

  it('leave a channel out of capacity enabled, for the status rules to retry elsewhere', () => {
    const error = parseCloudflareError(429, readJsonFixture(fixtures, 'error-out-of-capacity.json'));
    expect(error).toEqual({
      status: 429,
      message: 'AiError: No more data centers to forward the request to',
      type: 'rate_limit_error',
      code: '3040',
      disablesChannel: false,
    });
    expect(error.retryable).toBeUndefined();
  });

  it('read OpenAI-shaped errors of the compatible endpoints as OpenAI errors', () => {
    expect(parseCloudflareError(400, { error: { message: 'messages is required', type: 'invalid_request_error' } })).toMatchObject({
      message: 'messages is required',
      type: 'invalid_request_error',
      disablesChannel: false,
    });
  });
});
