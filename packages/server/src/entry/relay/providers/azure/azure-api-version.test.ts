import { describe, expect, it } from 'vitest';
import type { RelayRequest } from '../../provider.ts';
import { supportsStreamOptions, supportsTools, withoutUnsupportedStreamOptions } from './azure-api-version.ts';

const streamed = (body: Record<string, unknown>): RelayRequest => ({
  capability: 'chat',
  path: '/v1/chat/completions',
  contentType: 'application/json',
  rawBody: Buffer.from(JSON.stringify(body)),
  body,
  bodyChanged: false,
  model: 'gpt-4o',
  upstreamModel: 'gpt-4o',
  stream: true,
});

describe('Azure API versions', () => {
  it('knows which versions accept stream_options and tools', () => {
    expect(['2023-06-01-preview', '2024-06-01', '2024-08-01-preview'].map(supportsStreamOptions)).toEqual([false, false, false]);
    expect(['2024-09-01-preview', '2024-10-21', '2025-04-01-preview', 'preview', 'latest'].map(supportsStreamOptions)).toEqual([true, true, true, true, true]);
    expect(['2023-06-01-preview', '2023-07-01-preview', '2023-12-01-preview', '2024-02-01'].map(supportsTools)).toEqual([false, false, true, true]);
  });

  it('drops stream_options for versions before 2024-09-01-preview and keeps everything else', () => {
    const request = streamed({ model: 'gpt-4o', stream: true, stream_options: { include_usage: true }, messages: [] });
    const dropped = withoutUnsupportedStreamOptions(request, '2023-06-01-preview');
    expect(dropped.request.body).toEqual({ model: 'gpt-4o', stream: true, messages: [] });
    expect(dropped.request.bodyChanged).toBe(true);
    expect(dropped.warnings).toEqual(['stream_options dropped: Azure API version 2023-06-01-preview does not accept it']);
    expect(request.body).toHaveProperty('stream_options');

    const kept = withoutUnsupportedStreamOptions(request, '2024-10-21');
    expect(kept.request).toBe(request);
    expect(kept.warnings).toEqual([]);
    const plain = streamed({ model: 'gpt-4o', messages: [] });
    expect(withoutUnsupportedStreamOptions(plain, '2023-06-01-preview').request).toBe(plain);
  });
});
