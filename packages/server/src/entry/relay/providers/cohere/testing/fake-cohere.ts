import { readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';
import { sendJson, startFakeServer, type FakeResponse, type FakeServer } from '../../claude/testing/fake-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** Keys the fake refuses, with the documented error it answers. */
export const fakeCohereKeys = { invalid: 'cohere-invalid-key', rateLimited: 'cohere-rate-limited' } as const;

/** Newline-delimited JSON as Cohere streams it; one line is cut across two writes, as TCP may cut it. */
function sendNdjson(response: FakeResponse, text: string): void {
  response.writeHead(200, { 'content-type': 'application/stream+json' });
  const lines = text.split(/(?<=\n)/);
  for (const line of lines) {
    const middle = Math.floor(line.length / 2);
    response.write(line.slice(0, middle));
    response.write(line.slice(middle));
  }
  response.end();
}

/** Cohere's v1 API on 127.0.0.1: POST /v1/chat (whole or streamed) and /v1/rerank with a bearer key, GET /v1/models. */
export function startFakeCohere(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!key || key === fakeCohereKeys.invalid) return sendJson(response, 401, readJsonFixture(fixtures, 'error-unauthorized.json'));
    if (key === fakeCohereKeys.rateLimited) return sendJson(response, 429, readJsonFixture(fixtures, 'error-rate-limit.json'));
    if (request.method === 'GET' && request.path === '/v1/models')
      return sendJson(response, 200, {
        models: [
          { name: 'command-r', endpoints: ['generate', 'chat', 'summarize'] },
          { name: 'embed-english-v3.0', endpoints: ['embed'] },
          { name: 'rerank-english-v3.0', endpoints: ['rerank'] },
        ],
      });
    if (request.method === 'POST' && request.path === '/v1/chat') {
      if (typeof request.body?.message !== 'string' || !request.body.message)
        return sendJson(response, 400, { message: 'invalid request: message must be a non-empty string.' });
      if (request.body.stream === true) return sendNdjson(response, readStreamFixture(fixtures, 'chat-text.chunks.jsonl'));
      return sendJson(response, 200, readJsonFixture(fixtures, 'chat-text.json'));
    }
    if (request.method === 'POST' && request.path === '/v1/rerank') return sendJson(response, 200, readJsonFixture(fixtures, 'rerank.json'));
    sendJson(response, 404, { message: `Not found: ${request.path}` });
  });
}
