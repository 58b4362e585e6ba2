import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TransportOptions, UpstreamRequest } from '../../provider.ts';
import { bedrockTransport } from './bedrock-transport.ts';
import { fakeBedrockAccessKeys, startFakeBedrock, type FakeBedrock } from './testing/fake-bedrock.ts';

/** The whole body, once the stream has closed (when the transport lets go of its client). */
async function readAll(body: Readable): Promise<string> {
  let text = '';
  for await (const chunk of body) text += String(chunk);
  if (!body.closed) await once(body, 'close');
  return text;
}

describe('the Bedrock transport', () => {
  let fake: FakeBedrock;
  beforeAll(async () => {
    fake = await startFakeBedrock();
  });
  afterAll(async () => {
    await fake.close();
  });

  const streamRequest = (): UpstreamRequest => ({
    url: `${fake.url}/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke-with-response-stream`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }),
  });
  const options = (key: string): TransportOptions => ({
    signal: new AbortController().signal,
    headersTimeoutMs: 30_000,
    bodyTimeoutMs: 30_000,
    target: { id: 1, type: 33, baseUrl: fake.url, key, organization: '', other: '' },
  });

  it('never destroys a client with a request in flight, however many keys are in flight; idle ones make room', async () => {
    const destroy = vi.spyOn(BedrockRuntimeClient.prototype, 'destroy');
    // The clients of this test's requests, each with its stream held open: in flight until release.
    // (The pool is the process's: a file before this one in the same worker may have left idle
    // clients, which the pool rightly destroys to make room.)
    const send = vi.spyOn(BedrockRuntimeClient.prototype, 'send');
    const held = fake.holdStreams();
    const responses = [];
    let destroyedWhileBusy: number;
    let ours = new Set<unknown>();
    try {
      // Each key is its own SDK client: from the 65th on, the pool is full of busy clients.
      for (let index = 0; index < 70; index++) {
        const response = await bedrockTransport.send(streamRequest(), options(`${fakeBedrockAccessKeys.good}|secret-${index}|us-east-1`));
        expect(response.statusCode).toBe(200);
        responses.push(response);
      }
      ours = new Set(send.mock.contexts);
      destroyedWhileBusy = destroy.mock.contexts.filter((client) => ours.has(client)).length;
    } finally {
      held.release();
    }
    expect(destroyedWhileBusy).toBe(0);
    const bodies = await Promise.all(responses.map((response) => readAll(response.body)));
    for (const [index, body] of bodies.entries()) {
      expect(body, `stream ${index}`).not.toContain('event: error');
      expect(body, `stream ${index}`).toContain('event: message_stop');
    }
    // Once idle, the clients beyond the 64 kept are destroyed, and only those.
    expect(destroy.mock.contexts.filter((client) => ours.has(client))).toHaveLength(70 - 64);
    destroy.mockRestore();
    send.mockRestore();
  });
});
