import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOpenAIUpstream } from '../../../entry/relay/testing/fake-openai-upstream.ts';
import { listenLocally, openaiClient, seedChannel, seedToken } from '../../../entry/relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { OtlpReceiver, spanKind, type ReceivedSpan } from './testing/otlp-receiver.ts';

// The database plays no part in what is traced: SQLite alone (the relay's suites cover the engines).
const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');

const callerTraceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const callerSpanId = '00f067aa0ba902b7';

describe.each(sqlite)('OpenTelemetry traces on $dialect', (database) => {
  let receiver: OtlpReceiver;
  let fake: FakeOpenAIUpstream;
  let testApp: TestApp;
  let baseUrl: string;
  let user: TestUser;
  let apiKey: string;
  const flush = () => testApp.context.tracing?.flush() ?? Promise.resolve();

  beforeAll(async () => {
    receiver = new OtlpReceiver();
    await receiver.start();
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=collector-secret',
      OTEL_SERVICE_NAME: 'switchboard-under-test',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
    });
    baseUrl = await listenLocally(testApp);
    await testApp.context.options.set('RetryTimes', '1');
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, 'traced-model': 1 }));
    user = await createTestUser(testApp, { quota: 100_000_000 });
    apiKey = (await seedToken(testApp, user.id, { remainQuota: 10_000_000 })).apiKey;
    // A failing primary tier (500) and a healthy backup: every relay request is tried twice.
    fake.behave('primary-key', 'status-500');
    await seedChannel(testApp, { name: 'primary', key: 'primary-key', baseUrl: fake.baseUrl, models: ['traced-model'], priority: 10 });
    await seedChannel(testApp, { name: 'backup', key: 'backup-key', baseUrl: fake.baseUrl, models: ['traced-model'], priority: 0 });
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
    await receiver.stop();
  });

  const childrenOf = (spans: readonly ReceivedSpan[], parent: ReceivedSpan) =>
    spans.filter((span) => span.traceId === parent.traceId && span.parentSpanId === parent.spanId);

  /** The relay request span carrying this request id, once it and its billing child have arrived. */
  const relayTrace = (requestId: string) =>
    receiver.waitFor(flush, (spans) => {
      const request = spans.find((span) => span.kind === spanKind.server && span.attributes['switchboard.request_id'] === requestId);
      if (!request || !childrenOf(spans, request).some((span) => span.name === 'billing settle')) return undefined;
      const children = childrenOf(spans, request);
      return {
        request,
        attempts: children
          .filter((span) => span.kind === spanKind.client)
          .sort((a, b) => Number(a.attributes['switchboard.attempt']) - Number(b.attributes['switchboard.attempt'])),
        billing: children.find((span) => span.name === 'billing settle'),
      };
    });

  it('gives a retried relay request one span with an attempt span per channel and a billing span', async () => {
    const response = await openaiClient(baseUrl, apiKey)
      .chat.completions.create({ model: 'traced-model', messages: [{ role: 'user', content: 'Hello' }] })
      .withResponse();
    const requestId = response.response.headers.get('x-oneapi-request-id') ?? '';
    const { request, attempts, billing } = await relayTrace(requestId);

    expect(request.name).toBe('chat traced-model');
    expect(request.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'traced-model',
      'gen_ai.response.model': 'traced-model',
      'gen_ai.provider.name': 'openai',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 6,
      'http.response.status_code': 200,
      'http.route': '/v1/chat/completions',
      'switchboard.user_id': user.id,
      // ratio 1, completion ratio 1: 12 + 6
      'switchboard.quota': 18,
    });
    expect(typeof request.attributes['switchboard.token_id']).toBe('number');
    expect(request.resource).toMatchObject({ 'service.name': 'switchboard-under-test', 'deployment.environment.name': 'test' });

    expect(attempts.map((span) => span.attributes['switchboard.channel.name'])).toEqual(['primary', 'backup']);
    const [first, second] = attempts;
    expect(first?.attributes).toMatchObject({ 'switchboard.attempt': 1, 'http.response.status_code': 500, 'server.address': '127.0.0.1' });
    expect(first?.attributes['switchboard.retry_reason']).toMatch(/^500 /);
    expect(first?.statusCode).toBe(2);
    expect(second?.attributes).toMatchObject({ 'switchboard.attempt': 2, 'http.response.status_code': 200, 'gen_ai.provider.name': 'openai' });
    expect(second?.attributes['switchboard.retry_reason']).toBeUndefined();
    expect(second?.events).toContain('first_byte');
    expect(typeof second?.attributes['switchboard.time_to_first_byte_ms']).toBe('number');
    expect(billing?.attributes).toMatchObject({ 'switchboard.quota': 18, 'gen_ai.usage.input_tokens': 12 });

    // Neither the caller's key, the channels' keys nor the bodies are in any span.
    const everything = JSON.stringify(receiver.spans.map((span) => span.attributes));
    for (const secret of [apiKey, apiKey.slice(3), 'primary-key', 'backup-key', 'Hello from the fake upstream', 'collector-secret'])
      expect(everything).not.toContain(secret);
    // The exporter speaks OTLP/HTTP JSON to the traces path, with the configured headers.
    expect(receiver.exports[0]).toMatchObject({ path: '/v1/traces', contentType: 'application/json' });
    expect(receiver.exports[0]?.headers['x-collector-key']).toBe('collector-secret');
  });

  it("continues the caller's trace and passes each attempt's context upstream", async () => {
    const before = fake.requests.length;
    const answer = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        traceparent: `00-${callerTraceId}-${callerSpanId}-01`,
        tracestate: 'vendor=opaque',
      },
      body: JSON.stringify({ model: 'traced-model', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(answer.status).toBe(200);
    await answer.text();
    const { request, attempts } = await relayTrace(answer.headers.get('x-oneapi-request-id') ?? '');
    expect(request.traceId).toBe(callerTraceId);
    expect(request.parentSpanId).toBe(callerSpanId);

    const upstreamCalls = fake.requests.slice(before);
    expect(upstreamCalls).toHaveLength(2);
    upstreamCalls.forEach((call, index) => {
      expect(call.headers.traceparent).toBe(`00-${callerTraceId}-${attempts[index]?.spanId}-01`);
      expect(call.headers.tracestate).toBe('vendor=opaque');
    });
  });

  it('ends a streamed request span when the stream ends, with its usage', async () => {
    const { data: stream, response } = await openaiClient(baseUrl, apiKey)
      .chat.completions.create({ model: 'traced-model', messages: [{ role: 'user', content: 'Stream' }], stream: true })
      .withResponse();
    const requestId = response.headers.get('x-oneapi-request-id') ?? '';
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from the fake upstream.');
    const { request, attempts } = await relayTrace(requestId);
    expect(request.attributes).toMatchObject({
      'gen_ai.request.stream': true,
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 6,
      'http.response.status_code': 200,
    });
    expect(typeof request.attributes['gen_ai.response.time_to_first_chunk']).toBe('number');
    // The answering attempt ends with the stream, and the request span after it. Each span's clock
    // is anchored at a millisecond of Date.now(), so spans compare to within one millisecond.
    const answering = attempts.at(-1);
    expect(answering && answering.endTimeUnixNano - request.endTimeUnixNano < 1_000_000n).toBe(true);
  });

  it("traces the Anthropic entry's requests the same way", async () => {
    const answer = await fetch(`${baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'traced-model', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(answer.status).toBe(200);
    await answer.text();
    const { request } = await relayTrace(answer.headers.get('x-oneapi-request-id') ?? '');
    expect(request.name).toBe('chat traced-model');
    expect(request.attributes).toMatchObject({ 'http.route': '/v1/messages', 'gen_ai.usage.input_tokens': 12, 'switchboard.quota': 18 });
  });

  it('names console API spans by route pattern, never by the URL', async () => {
    const answer = await fetch(`${baseUrl}/api/token/987654?secret=hidden-value`, { headers: user.headers });
    const requestId = answer.headers.get('x-oneapi-request-id') ?? '';
    await answer.text();
    const span = await receiver.waitFor(flush, (spans) => spans.find((candidate) => candidate.attributes['switchboard.request_id'] === requestId));
    expect(span.kind).toBe(spanKind.server);
    expect(span.name).toMatch(/^GET \/api\/token\/:id\/?$/);
    expect(span.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.response.status_code': answer.status });
    const recorded = JSON.stringify([span.name, span.attributes]);
    expect(recorded).not.toContain('987654');
    expect(recorded).not.toContain('hidden-value');
  });
});

describe.each(sqlite)('with tracing off on $dialect', (database) => {
  it('creates no tracer and sends nothing', async () => {
    const receiver = new OtlpReceiver();
    await receiver.start();
    const fake = new FakeOpenAIUpstream();
    await fake.start();
    // The receiver's address is known, but no variable asks for traces (OTEL_TRACES_EXPORTER=none wins over an endpoint).
    const testApp = await createTestApp(database, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_EXPORTER: 'none' });
    try {
      expect(testApp.context.tracing).toBeUndefined();
      const baseUrl = await listenLocally(testApp);
      const user = await createTestUser(testApp, { quota: 10_000_000 });
      const { apiKey } = await seedToken(testApp, user.id, { remainQuota: 1_000_000 });
      await seedChannel(testApp, { key: 'only-key', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'] });
      await openaiClient(baseUrl, apiKey).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
      expect(fake.requests.at(-1)?.headers.traceparent).toBeUndefined();
    } finally {
      // Closing would flush any exporter there were.
      await testApp.close();
      await fake.stop();
    }
    expect(receiver.exports).toHaveLength(0);
    await receiver.stop();
  });
});

describe.each(sqlite)('on a clean stop on $dialect', (database) => {
  it('exports the spans still queued', async () => {
    const receiver = new OtlpReceiver();
    await receiver.start();
    // A batch delay far longer than the test: only the shutdown flush can send the span.
    const testApp = await createTestApp(database, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '600000' });
    try {
      const baseUrl = await listenLocally(testApp);
      const answer = await fetch(`${baseUrl}/api/status`);
      expect(answer.status).toBe(200);
      await answer.text();
      expect(receiver.exports).toHaveLength(0);
    } finally {
      await testApp.close();
    }
    expect(receiver.spans.map((span) => span.name)).toContain('GET /api/status');
    await receiver.stop();
  });
});
