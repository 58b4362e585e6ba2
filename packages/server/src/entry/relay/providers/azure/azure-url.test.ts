import { describe, expect, it } from 'vitest';
import type { ChannelTarget, RelayRequest } from '../../provider.ts';
import { azureUrl } from './index.ts';

const target: ChannelTarget = { id: 1, type: 3, baseUrl: 'https://contoso.openai.azure.com', key: 'k', organization: '', other: '' };
const request = (path: string, upstreamModel = 'gpt-4o'): RelayRequest => ({
  capability: 'chat',
  path,
  contentType: 'application/json',
  rawBody: Buffer.alloc(0),
  body: {},
  bodyChanged: false,
  model: upstreamModel,
  upstreamModel,
  stream: false,
});

describe('Azure deployment URLs', () => {
  it('puts the model in the deployment path and the API version in the query', () => {
    expect(azureUrl(request('/v1/chat/completions'), target)).toBe(
      'https://contoso.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2023-06-01-preview',
    );
    expect(azureUrl(request('/v1/embeddings', 'text-embedding-3-small'), { ...target, other: '2024-10-21' })).toBe(
      'https://contoso.openai.azure.com/openai/deployments/text-embedding-3-small/embeddings?api-version=2024-10-21',
    );
    expect(azureUrl(request('/v1/audio/transcriptions', 'whisper'), target)).toBe(
      'https://contoso.openai.azure.com/openai/deployments/whisper/audio/transcriptions?api-version=2023-06-01-preview',
    );
    expect(azureUrl(request('/v1/responses'), target)).toBe('https://contoso.openai.azure.com/openai/v1/responses?api-version=preview');
  });
});
