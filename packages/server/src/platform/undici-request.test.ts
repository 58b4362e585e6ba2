import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../testing/local-http-server.ts';
import { Agent, request } from './undici-request.ts';

describe("undici's request and Agent loaded from their own files", () => {
  let upstream: Awaited<ReturnType<typeof startLocalServer>>;
  const agent = new Agent({ connections: null, pipelining: 1 });
  beforeAll(async () => {
    upstream = await startLocalServer({
      'GET /v1/models': () => ({ json: { data: [] } }),
      'POST /v1/chat/completions': (seen) => ({ json: { echoed: seen.body } }),
      'PUT /upload': () => ({ text: 'stored' }),
    });
  });
  afterAll(async () => {
    await agent.close();
    await upstream.close();
  });

  it('sends to the URL’s path and query through the given pool, with the method, headers and body', async () => {
    const answer = await request(`${upstream.url}/v1/chat/completions?api-version=2024`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
      body: '{"model":"m"}',
      dispatcher: agent,
      headersTimeout: 5_000,
    });
    expect(answer.statusCode).toBe(200);
    expect(await answer.body.json()).toEqual({ echoed: '{"model":"m"}' });
    expect(upstream.requests.at(-1)).toMatchObject({
      method: 'POST',
      url: '/v1/chat/completions?api-version=2024',
      headers: { authorization: 'Bearer sk-test' },
    });
  });

  it('defaults the method as undici does (GET, PUT with a body) and uses the global pool when none is named', async () => {
    const listed = await request(new URL(`${upstream.url}/v1/models`));
    expect(await listed.body.json()).toEqual({ data: [] });
    const stored = await request(`${upstream.url}/upload`, { body: 'bytes' });
    expect(await stored.body.text()).toBe('stored');
    expect(upstream.requests.slice(-2).map((seen) => `${seen.method} ${seen.url}`)).toEqual(['GET /v1/models', 'PUT /upload']);
  });
});
