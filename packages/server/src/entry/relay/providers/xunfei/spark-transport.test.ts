import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSseText } from '@switchboard/contracts';
import type { TransportOptions, UpstreamRequest } from '../../provider.ts';
import { createSparkTransport } from './spark-transport.ts';
import { fakeSparkKeys, startFakeSpark, type FakeSpark } from './testing/fake-spark.ts';

async function readAll(body: Readable): Promise<string> {
  let text = '';
  for await (const chunk of body) text += String(chunk);
  return text;
}

describe('the Spark WebSocket transport', () => {
  let fake: FakeSpark;
  beforeAll(async () => {
    fake = await startFakeSpark();
  });
  afterAll(async () => {
    await fake.close();
  });

  const transport = createSparkTransport();
  const request = (stream: boolean, appId = 'appgood'): UpstreamRequest => ({
    url: `${fake.url.replace('http://', 'ws://')}/v3.5/chat`,
    method: 'GET',
    headers: stream ? { accept: 'text/event-stream' } : {},
    body: JSON.stringify({
      header: { app_id: appId },
      parameter: { chat: { domain: 'generalv3.5' } },
      payload: { message: { text: [{ role: 'user', content: '你是谁' }] } },
    }),
  });
  const options = (key: string, overrides: Partial<TransportOptions> = {}): TransportOptions => ({
    signal: new AbortController().signal,
    headersTimeoutMs: 5_000,
    bodyTimeoutMs: 5_000,
    target: { id: 1, type: 18, baseUrl: fake.url, key, organization: '', other: '' },
    ...overrides,
  });

  it('collects the frames of a whole answer into one JSON body', async () => {
    const response = await transport.send(request(false), options(fakeSparkKeys.good));
    expect(response.statusCode).toBe(200);
    const body = JSON.parse(await readAll(response.body));
    expect(body.payload.choices.text[0].content).toBe('你好！我是讯飞星火认知大模型，很高兴为你服务。');
    expect(body.payload.usage.text).toMatchObject({ prompt_tokens: 5, completion_tokens: 23 });
    expect(fake.sessions.at(-1)).toMatchObject({ path: '/v3.5/chat', message: { header: { app_id: 'appgood' } } });
  });

  it('hands a stream over as one server-sent event per frame', async () => {
    const response = await transport.send(request(true), options(fakeSparkKeys.good));
    expect(response.headers['content-type']).toBe('text/event-stream');
    const events = parseSseText(await readAll(response.body)).map((event) => JSON.parse(event.data));
    expect(events.map((frame) => frame.payload.choices.seq)).toEqual([0, 1, 2]);
  });

  it('answers a refused handshake with iFlytek status and message', async () => {
    const refused = await transport.send(request(false), options(fakeSparkKeys.wrongSecret));
    expect(refused.statusCode).toBe(401);
    expect(JSON.parse(await readAll(refused.body))).toEqual({ message: 'HMAC signature does not match' });
    const skewed = await createSparkTransport(() => new Date('Fri, 05 May 2023 10:43:39 GMT')).send(request(false), options(fakeSparkKeys.good));
    expect(skewed.statusCode).toBe(403);
    const malformed = await transport.send(request(false), options('only|two'));
    expect(malformed.statusCode).toBe(401);
  });

  it('answers an error frame before any text with the status its code maps to', async () => {
    const response = await transport.send(request(true, 'applimit'), options(fakeSparkKeys.secondLimit));
    expect(response.statusCode).toBe(429);
    expect(JSON.parse(await readAll(response.body))).toMatchObject({ header: { code: 11202 } });
  });

  it('fails a stream cut before its last frame, and a whole answer too', async () => {
    const response = await transport.send(request(true, 'appcut'), options(fakeSparkKeys.cutShort));
    expect(response.statusCode).toBe(200);
    await expect(readAll(response.body)).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
    await expect(transport.send(request(false, 'appcut'), options(fakeSparkKeys.cutShort))).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('gives up on silence with a TimeoutError, and on the caller abort with an AbortError', async () => {
    await expect(transport.send(request(true, 'appsilen'), options(fakeSparkKeys.silent, { headersTimeoutMs: 50 }))).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    const controller = new AbortController();
    const pending = transport.send(request(true, 'appsilen'), options(fakeSparkKeys.silent, { signal: controller.signal }));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
