import { describe, expect, it } from 'vitest';
import { readJsonFixture } from '../claude/testing/fixtures.ts';
import { convertEmbeddingsRequest } from './convert-embeddings-request.ts';
import { mokaaiProvider } from './index.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);

describe('MokaAI embeddings', () => {
  it('sends input as a list of strings, with the mapped model', () => {
    expect(convertEmbeddingsRequest({ model: 'm3e', input: 'hello' }, 'm3e-base')).toEqual({ body: { model: 'm3e-base', input: ['hello'] }, warnings: [] });
    expect(convertEmbeddingsRequest({ input: ['a', [1, 2], 'b'], encoding_format: 'float' }, 'm3e-small')).toEqual({
      body: { model: 'm3e-small', input: ['a', 'b'] },
      warnings: ['non-text inputs dropped: MokaAI embeds strings only', 'encoding_format ignored: MokaAI has no such parameter'],
    });
  });

  it('posts to {base}/embeddings with the bearer key', () => {
    const built = mokaaiProvider.embeddings?.buildRequest(
      {
        capability: 'embeddings',
        path: '/v1/embeddings',
        contentType: 'application/json',
        rawBody: Buffer.from('{}'),
        body: { model: 'm3e-base', input: 'hi' },
        bodyChanged: false,
        model: 'm3e-base',
        upstreamModel: 'm3e-base',
        stream: false,
      },
      { id: 1, type: 44, baseUrl: 'https://api.moka.ai', key: 'moka-key', organization: '', other: '' },
    );
    expect(built).toMatchObject({ url: 'https://api.moka.ai/embeddings', method: 'POST', headers: { authorization: 'Bearer moka-key' } });
    expect(JSON.parse(String(built?.body))).toEqual({ model: 'm3e-base', input: ['hi'] });
  });

  it('reads the usage of the OpenAI-shaped answer, and OpenAI-shaped errors', () => {
    const response = mokaaiProvider.embeddings?.response;
    expect(response?.kind === 'pass-through' ? response.extractUsage(readJsonFixture(fixtures, 'embeddings.json')) : undefined).toMatchObject({
      promptTokens: 12,
      completionTokens: 0,
    });
    expect(mokaaiProvider.parseError(401, readJsonFixture(fixtures, 'error-authentication.json'))).toMatchObject({ disablesChannel: true });
    expect(mokaaiProvider.parseError(429, readJsonFixture(fixtures, 'error-rate-limit.json'))).toMatchObject({ disablesChannel: false });
  });
});
