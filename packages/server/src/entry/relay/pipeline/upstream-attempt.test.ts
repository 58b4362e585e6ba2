import type { FastifyReply } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import type { ChannelRecord } from '../cache/channel-cache.ts';
import type { Provider, Transport, TransportOptions, UpstreamRequest } from '../provider.ts';
import { relayEndpoints, type RelayEndpoint } from './relay-endpoints.ts';
import { readRelayBody } from './request-reader.ts';
import type { SensitiveWords } from './sensitive-words.ts';
import { attemptUpstream, type AttemptInput } from './upstream-attempt.ts';

const chatEndpoint = relayEndpoints[0] as RelayEndpoint;

/** An upstream that never answers: it waits until the relay aborts the call. */
function silentUpstream() {
  const sent: Array<{ request: UpstreamRequest; options: TransportOptions }> = [];
  const transport: Transport = {
    send: (request, options) => {
      sent.push({ request, options });
      return new Promise((_resolve, reject) =>
        options.signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })), { once: true }),
      );
    },
  };
  const provider: Provider = {
    id: 'silent',
    channelTypes: [1],
    transport,
    chat: {
      buildRequest: () => ({ url: 'http://upstream.invalid/v1/chat/completions', method: 'POST', headers: {}, body: '{}', warnings: ['seed ignored'] }),
      response: { kind: 'pass-through', extractUsage: () => undefined, extractStreamText: () => '' },
    },
    parseError: (status) => ({ status, message: '', type: '', code: '', disablesChannel: false }),
  };
  const channel = {
    id: 7,
    type: 1,
    keys: ['upstream-key'],
    baseUrl: 'http://upstream.invalid',
    organization: '',
    other: '',
    modelMapping: {},
    statusCodeMapping: {},
    provider,
  } as unknown as ChannelRecord;
  return { sent, channel };
}

function attemptInput(channel: ChannelRecord, callerGone: AbortSignal): AttemptInput {
  const json = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Think hard' }] });
  return {
    endpoint: chatEndpoint,
    parsed: readRelayBody(chatEndpoint, Buffer.from(json), JSON.parse(json), 'application/json'),
    channel,
    // Neither path below answers the caller: nothing of the reply or the word check is touched.
    reply: {} as FastifyReply,
    requestId: 'req-1',
    startedAt: 0,
    now: () => 0,
    headersTimeoutMs: 60_000,
    streamTimeoutMs: 60_000,
    relayTimeoutMs: 0,
    promptTokensEstimate: 3,
    sensitive: {} as SensitiveWords,
    extraHeaders: {},
    random: () => 0,
    callerGone,
  };
}

describe('a caller who leaves during an attempt', () => {
  it('costs nothing before the request is sent: the attempt fails (the hold is refunded) and the upstream is never called', async () => {
    const upstream = silentUpstream();
    const result = await attemptUpstream(attemptInput(upstream.channel, AbortSignal.abort()));
    expect(result).toMatchObject({ kind: 'failed', retryable: false, error: { code: 'client_gone' } });
    expect(upstream.sent).toHaveLength(0);
  });

  it('is charged once the request was sent: the upstream is aborted and the prompt is counted locally', async () => {
    const upstream = silentUpstream();
    const gone = new AbortController();
    const pending = attemptUpstream(attemptInput(upstream.channel, gone.signal));
    await vi.waitFor(() => expect(upstream.sent).toHaveLength(1));
    gone.abort();
    const result = await pending;
    expect(result).toEqual({
      kind: 'charged',
      usage: undefined,
      localCompletionTokens: 0,
      firstResponseMs: undefined,
      upstreamModel: 'gpt-4o',
      endReason: 'client_gone',
      warnings: ['seed ignored'],
      callerError: expect.objectContaining({ code: 'client_gone', status: 499 }),
    });
    expect(upstream.sent[0]?.options.signal.aborted).toBe(true);
  });
});
