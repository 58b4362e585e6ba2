import { readJsonFixture, readStreamFixture } from './fixtures.ts';
import { sendEventStream, sendJson, startFakeServer, type FakeResponse, type FakeServer, type ReceivedRequest } from './fake-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** Keys the fake refuses, with the documented error it answers. */
export const fakeClaudeKeys = { invalid: 'claude-invalid-key', rateLimited: 'claude-rate-limited' } as const;

/**
 * Answers one Messages request from the recorded fixtures: a tool-use turn (thinking, text,
 * tool_use, cache reads and writes) when the request offers tools, otherwise a plain text turn;
 * streamed when the body says so (or when `streamAlways`, for Vertex's streamRawPredict).
 */
export function answerMessages(request: ReceivedRequest, response: FakeResponse, key: string, streamAlways = false): void {
  if (key === fakeClaudeKeys.invalid) return sendJson(response, 401, readJsonFixture(fixtures, 'error-authentication.json'));
  if (key === fakeClaudeKeys.rateLimited) return sendJson(response, 429, readJsonFixture(fixtures, 'error-rate-limit.json'), { 'retry-after': '1' });
  const withTools = Array.isArray(request.body?.tools) && request.body.tools.length > 0;
  if (request.body?.stream === true || streamAlways) return sendEventStream(response, readStreamFixture(fixtures, withTools ? 'messages-tool-use.chunks.txt' : 'messages-text.chunks.txt'));
  sendJson(response, 200, readJsonFixture(fixtures, withTools ? 'messages-tool-use.json' : 'messages-text.json'));
}

/** Anthropic's API on 127.0.0.1: POST /v1/messages with `x-api-key` and `anthropic-version`. */
export function startFakeClaude(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    if (request.method !== 'POST' || request.path !== '/v1/messages') return sendJson(response, 404, { type: 'error', error: { type: 'not_found_error', message: `Not found: ${request.path}` } });
    if (!request.headers['anthropic-version']) return sendJson(response, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version header is required' } });
    answerMessages(request, response, String(request.headers['x-api-key'] ?? ''));
  });
}
